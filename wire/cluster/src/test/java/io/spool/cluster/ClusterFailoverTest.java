package io.spool.cluster;

import io.spool.api.stream.TopicConfig;
import io.spool.cluster.StoredFrames.Stored;
import io.spool.testing.CrashTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three nodes as child JVMs on loopback ports, under a steady publish load: SIGKILL a partition's leader and start
 * it again, then SIGKILL a follower and start it again, {@code spool.cluster.rounds} times (1 in the default build,
 * more under the soak profile). The history of publishes and confirms is then checked against what every node
 * stored, and every node must hold the same bytes at the same offsets.
 */
@CrashTest
class ClusterFailoverTest extends ChildNodesTest
{
    private static final String TOPIC = "events";
    private static final int PARTITIONS = 2;
    private static final int ROUNDS = Integer.getInteger("spool.cluster.rounds", 1);
    /** Batches confirmed between two faults: enough to show the cluster serving again. */
    private static final int PROGRESS = 100;
    private static final Duration PROGRESS_WAIT = Duration.ofSeconds(60);

    @Test
    void noConfirmedRecordIsLostWhenTheLeaderAndThenAFollowerAreKilledUnderLoad() throws Exception
    {
        cluster = ChildNodes.launch(dir, 3);
        final ClusterMembers members = cluster.members();
        final PublishHistory history = new PublishHistory();
        try (ClusterClient client = ClusterClient.connect(members))
        {
            client.createTopic(TOPIC, 3, TopicConfig.of(PARTITIONS));
            try (PublishLoad load = new PublishLoad(client.newProducer()::send, TOPIC, PARTITIONS, history))
            {
                int expected = PROGRESS;
                history.awaitConfirmed(expected, PROGRESS_WAIT);
                for (int round = 0; round < ROUNDS; round++)
                {
                    final NodeProcess leader = cluster.node(client.leaderOf(TOPIC, 0));
                    leader.kill();
                    history.awaitConfirmed(expected += PROGRESS, PROGRESS_WAIT);
                    leader.start();
                    history.awaitConfirmed(expected += PROGRESS, PROGRESS_WAIT);

                    final NodeProcess follower = follower(client);
                    follower.kill();
                    history.awaitConfirmed(expected += PROGRESS, PROGRESS_WAIT);
                    follower.start();
                    history.awaitConfirmed(expected += PROGRESS, PROGRESS_WAIT);
                }
            }
            cluster.awaitCaughtUp(client, TOPIC, PARTITIONS, PROGRESS_WAIT);
        }
        final Map<Integer, List<Stored>> first = cluster.stopAndCompare(TOPIC, PARTITIONS);
        assertThat(history.confirmedBatches()).isGreaterThanOrEqualTo(PROGRESS * (1 + 4 * ROUNDS));
        assertThat(history.violations(first)).isEmpty();
    }

    /** A node leading neither partition, or failing that one not leading partition 0. */
    private NodeProcess follower(final ClusterClient client)
    {
        final int leader0 = client.leaderOf(TOPIC, 0);
        final int leader1 = client.leaderOf(TOPIC, 1);
        final List<NodeProcess> nodes = cluster.nodes();
        return nodes.stream().filter(node -> node.nodeId() != leader0 && node.nodeId() != leader1).findFirst()
            .orElseGet(() -> nodes.stream().filter(node -> node.nodeId() != leader0).findFirst().orElseThrow());
    }
}
