package io.spool.cluster;

import io.spool.Spool;
import io.spool.cluster.StoredFrames.Stored;
import io.spool.wire.client.ClientConfig;
import io.spool.wire.client.SpoolClient;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** What the failover tests check in the nodes' own logs once the load has stopped. */
final class NodeLogs
{
    private NodeLogs()
    {
    }

    /** Waits until the node's own log holds every committed record of each partition, read over its native server. */
    static void awaitLocalEnds(final NodeProcess node, final String topic, final long[] ends, final Duration wait)
    {
        try (SpoolClient reader = SpoolClient.connect(ClientConfig.builder().port(node.clientPort()).build()))
        {
            Eventually.holds(() ->
            {
                final var partitions = reader.admin().describeTopic(topic).partitions();
                boolean caughtUp = true;
                for (int partition = 0; partition < ends.length; partition++)
                {
                    caughtUp &= partitions.get(partition).endOffset() == ends[partition];
                }
                return caughtUp;
            }, wait, () -> "node " + node.nodeId() + " holds the ends " + Arrays.toString(ends) +
                " the cluster committed");
        }
    }

    /**
     * Reads every stopped node's log and checks that they all hold the same frames at the same offsets.
     *
     * @return the records of the first node, by partition.
     */
    static Map<Integer, List<Stored>> sameOnEveryNode(final List<NodeProcess> nodes, final String topic,
        final int partitions)
    {
        final Map<Integer, List<Stored>> first = stored(nodes.get(0), topic, partitions);
        for (final NodeProcess node : nodes.subList(1, nodes.size()))
        {
            final Map<Integer, List<Stored>> other = stored(node, topic, partitions);
            for (int partition = 0; partition < partitions; partition++)
            {
                assertThat(other.get(partition).stream().map(Stored::frame).toList())
                    .as("frames of node %d, partition %d", node.nodeId(), partition)
                    .containsExactlyElementsOf(first.get(partition).stream().map(Stored::frame).toList());
            }
        }
        return first;
    }

    private static Map<Integer, List<Stored>> stored(final NodeProcess node, final String topic,
        final int partitions)
    {
        final Map<Integer, List<Stored>> records = new HashMap<>();
        try (Spool engine = Spool.open(node.dataDir().resolve("log")))
        {
            for (int partition = 0; partition < partitions; partition++)
            {
                records.put(partition, StoredFrames.records(engine, topic, partition));
            }
        }
        return records;
    }
}
