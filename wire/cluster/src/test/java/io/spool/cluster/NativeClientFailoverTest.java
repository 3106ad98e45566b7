package io.spool.cluster;

import io.spool.api.stream.TopicConfig;
import io.spool.cluster.StoredFrames.Stored;
import io.spool.testing.CrashTest;
import io.spool.wire.client.ClientConfig;
import io.spool.wire.client.FailoverProducer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three nodes as child JVMs, a native {@link FailoverProducer} publishing under load through the node that leads
 * partition 0: SIGKILL that node, {@code spool.cluster.rounds} times (1 in the default build), so that the producer
 * loses its connection and a leader at once, and start it again. The history of publishes and confirms is then
 * checked against what every node stored: no confirmed batch lost or stored twice, none failed.
 */
@CrashTest
class NativeClientFailoverTest extends ChildNodesTest
{
    private static final String TOPIC = "payments";
    private static final int PARTITIONS = 2;
    private static final int ROUNDS = Integer.getInteger("spool.cluster.rounds", 1);
    /** Batches confirmed between two faults: enough to show the cluster serving again. */
    private static final int PROGRESS = 100;
    private static final Duration PROGRESS_WAIT = Duration.ofSeconds(60);

    @Test
    void noConfirmedPublishIsLostOrStoredTwiceWhenTheProducersNodeAndLeaderIsKilledUnderLoad() throws Exception
    {
        cluster = ChildNodes.launch(dir, 3);
        final ClusterMembers members = cluster.members();
        final PublishHistory history = new PublishHistory();
        try (ClusterClient client = ClusterClient.connect(members))
        {
            client.createTopic(TOPIC, 3, TopicConfig.of(PARTITIONS));
            int expected = 0;
            for (int round = 0; round < ROUNDS; round++)
            {
                client.endOffset(TOPIC, 0); // asks the leader, so the client knows the one after the last round
                final int leader = client.leaderOf(TOPIC, 0);
                try (FailoverProducer producer = FailoverProducer.connect(nativeServersFirst(leader));
                     PublishLoad load = new PublishLoad((topic, partition, records) ->
                         producer.send(topic, partition, records).thenApply(offsets ->
                             new ClusterProducer.Confirm(topic, partition, offsets[0], offsets.length, false)),
                         TOPIC, PARTITIONS, history))
                {
                    history.awaitConfirmed(expected += PROGRESS, PROGRESS_WAIT);
                    final NodeProcess killed = cluster.node(leader);
                    killed.kill();
                    history.awaitConfirmed(expected += PROGRESS, PROGRESS_WAIT);
                    killed.start();
                    history.awaitConfirmed(expected += PROGRESS, PROGRESS_WAIT);
                    assertThat(producer.failovers()).as("the producer moved off the killed node").isEqualTo(1);
                }
            }
            cluster.awaitCaughtUp(client, TOPIC, PARTITIONS, PROGRESS_WAIT);
        }
        final Map<Integer, List<Stored>> stored = cluster.stopAndCompare(TOPIC, PARTITIONS);
        assertThat(history.confirmedBatches()).isGreaterThanOrEqualTo(PROGRESS * 3 * ROUNDS);
        assertThat(history.failedBatches()).as("batches failed by a lost connection").isZero();
        assertThat(history.violations(stored)).isEmpty();
    }

    /** Every node's native server in its current run, the one of {@code first} before the others. */
    private List<ClientConfig> nativeServersFirst(final int first)
    {
        return cluster.nodes().stream()
            .sorted(Comparator.comparing(node -> node.nodeId() != first))
            .map(node -> ClientConfig.builder().port(node.clientPort()).build())
            .toList();
    }

}
