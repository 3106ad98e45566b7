package io.spool.cluster;

import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A follower whose segment is damaged while it is down (the last records' bytes changed, as a torn write leaves
 * them): its recovery cuts the log before the damage, and on restart the partition's group stores the lost records
 * again, so it ends with the same bytes as the others.
 */
@SlowTest
class DamagedFollowerTest
{
    private static final String TOPIC = "ledger";
    private static final int BATCHES = 20;

    @TempDir
    Path dir;

    private final List<ClusterNode> nodes = new ArrayList<>();

    @AfterEach
    void stop()
    {
        nodes.forEach(ClusterNode::close);
    }

    @Test
    void aFollowerCutByRecoveryGetsItsLostRecordsBackFromTheGroup() throws Exception
    {
        final ClusterMembers members = LoopbackPorts.members(3);
        for (final ClusterMembers.Member member : members.members())
        {
            nodes.add(ClusterNode.start(TestNodes.config(members, member.id(), dir)));
        }
        try (ClusterClient client = ClusterClient.connect(members))
        {
            client.createTopic(TOPIC, 3, TopicConfig.of(1));
            final ClusterProducer producer = client.newProducer();
            for (int batch = 0; batch < BATCHES; batch++)
            {
                producer.send(TOPIC, 0, List.of(ProducerRecord.toPartition(TOPIC, 0, null,
                    ("entry " + batch).getBytes(UTF_8)))).get(30, TimeUnit.SECONDS);
            }
            final int followerId = client.leaderOf(TOPIC, 0) % 3 + 1;
            final ClusterNode follower = nodes.get(followerId - 1);
            follower.engine().streams().topics().topic(TOPIC).partition(0).awaitEndAbove(BATCHES - 1,
                TimeUnit.SECONDS.toNanos(30));
            follower.close();

            LogDamage.damage(dir.resolve("node-" + followerId), TOPIC, "entry " + (BATCHES - 3));

            final ClusterNode restarted = ClusterNode.start(TestNodes.config(members, followerId, dir));
            nodes.set(followerId - 1, restarted);
            assertThat(restarted.engine().streams().topics().topic(TOPIC).partition(0).recoveryReport()
                .truncatedAtOffset()).as("where recovery cut the damaged log").isEqualTo(BATCHES - 3);
            producer.send(TOPIC, 0, List.of(ProducerRecord.toPartition(TOPIC, 0, null,
                "after".getBytes(UTF_8)))).get(30, TimeUnit.SECONDS);
            assertThat(restarted.engine().streams().topics().topic(TOPIC).partition(0).awaitEndAbove(BATCHES,
                TimeUnit.SECONDS.toNanos(30))).isTrue();
        }
        final List<byte[]> leaderFrames = StoredFrames.of(nodes.get(0).engine(), TOPIC, 0);
        assertThat(leaderFrames).hasSize(BATCHES + 1);
        for (final ClusterNode node : nodes)
        {
            assertThat(StoredFrames.of(node.engine(), TOPIC, 0)).as("frames of node %d", node.nodeId())
                .containsExactlyElementsOf(leaderFrames);
        }
    }
}
