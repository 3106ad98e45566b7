package io.spool.cluster;

import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
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

    private InJvmCluster cluster;

    @BeforeEach
    void create()
    {
        cluster = new InJvmCluster(3, dir);
    }

    @AfterEach
    void stop()
    {
        cluster.close();
    }

    @Test
    void aFollowerCutByRecoveryGetsItsLostRecordsBackFromTheGroup() throws Exception
    {
        cluster.startAll();
        try (ClusterClient client = ClusterClient.connect(cluster.members()))
        {
            client.createTopic(TOPIC, 3, TopicConfig.of(1));
            final ClusterProducer producer = client.newProducer();
            for (int batch = 0; batch < BATCHES; batch++)
            {
                producer.send(TOPIC, 0, List.of(ProducerRecord.toPartition(TOPIC, 0, null,
                    ("entry " + batch).getBytes(UTF_8)))).get(30, TimeUnit.SECONDS);
            }
            final ClusterNode follower = cluster.followerOf(client, TOPIC, 0);
            final int followerId = follower.nodeId();
            follower.engine().streams().topics().topic(TOPIC).partition(0).awaitEndAbove(BATCHES - 1,
                TimeUnit.SECONDS.toNanos(30));
            cluster.stop(followerId);

            LogDamage.damage(cluster.directory(followerId), TOPIC, "entry " + (BATCHES - 3));

            final ClusterNode restarted = cluster.start(followerId);
            assertThat(restarted.engine().streams().topics().topic(TOPIC).partition(0).recoveryReport()
                .truncatedAtOffset()).as("where recovery cut the damaged log").isEqualTo(BATCHES - 3);
            producer.send(TOPIC, 0, List.of(ProducerRecord.toPartition(TOPIC, 0, null,
                "after".getBytes(UTF_8)))).get(30, TimeUnit.SECONDS);
            assertThat(restarted.engine().streams().topics().topic(TOPIC).partition(0).awaitEndAbove(BATCHES,
                TimeUnit.SECONDS.toNanos(30))).isTrue();
        }
        final List<byte[]> leaderFrames = StoredFrames.of(cluster.node(1).engine(), TOPIC, 0);
        assertThat(leaderFrames).hasSize(BATCHES + 1);
        for (final ClusterNode node : cluster.nodes())
        {
            assertThat(StoredFrames.of(node.engine(), TOPIC, 0)).as("frames of node %d", node.nodeId())
                .containsExactlyElementsOf(leaderFrames);
        }
    }
}
