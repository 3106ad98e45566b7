package io.spool.cluster;

import io.spool.cluster.StoredFrames.Stored;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A cluster of child JVMs on free loopback ports, one {@link NodeProcess} per member, for the tests that kill nodes.
 * Not thread-safe.
 */
final class ChildNodes implements AutoCloseable
{
    private final ClusterMembers members;
    private final List<NodeProcess> nodes = new ArrayList<>();

    private ChildNodes(final ClusterMembers members)
    {
        this.members = members;
    }

    /** Launches {@code size} nodes, each under {@code dir/node-N}, and waits until every one serves. */
    static ChildNodes launch(final Path dir, final int size)
    {
        return launch(dir, size, false);
    }

    /** As {@link #launch(Path, int)}, each node with a Kafka listener on a loopback port it keeps across restarts. */
    static ChildNodes launchWithKafka(final Path dir, final int size)
    {
        return launch(dir, size, true);
    }

    private static ChildNodes launch(final Path dir, final int size, final boolean kafka)
    {
        final ChildNodes cluster = new ChildNodes(LoopbackPorts.members(size));
        final List<Integer> kafkaPorts = kafka ? LoopbackPorts.free(size) : null;
        for (final ClusterMembers.Member member : cluster.members.members())
        {
            cluster.nodes.add(new NodeProcess(member.id(), cluster.members, dir.resolve("node-" + member.id()),
                TestNodes.ELECTION_TIMEOUT, kafka ? kafkaPorts.get(cluster.nodes.size()) : -1));
        }
        try
        {
            cluster.nodes.forEach(NodeProcess::launch);
            cluster.nodes.forEach(NodeProcess::awaitReady);
            return cluster;
        }
        catch (final RuntimeException | Error ex)
        {
            cluster.close();
            throw ex;
        }
    }

    ClusterMembers members()
    {
        return members;
    }

    List<NodeProcess> nodes()
    {
        return nodes;
    }

    /** Every node's Kafka listener, as {@code bootstrap.servers} takes the list. */
    String kafkaBootstrap()
    {
        return String.join(",", nodes.stream().map(NodeProcess::kafkaAddress).toList());
    }

    NodeProcess node(final int nodeId)
    {
        return nodes.stream().filter(node -> node.nodeId() == nodeId).findFirst()
            .orElseThrow(() -> new AssertionError("no node " + nodeId + " in " + members));
    }

    /** Waits until every node's own log holds what the cluster committed to each partition of {@code topic}. */
    void awaitCaughtUp(final ClusterClient client, final String topic, final int partitions, final Duration wait)
    {
        final long[] ends = new long[partitions];
        for (int partition = 0; partition < partitions; partition++)
        {
            ends[partition] = client.endOffset(topic, partition);
        }
        for (final NodeProcess node : nodes)
        {
            NodeLogs.awaitLocalEnds(node, topic, ends, wait);
        }
    }

    /**
     * Stops every node and checks that they all stored the same frames at the same offsets.
     *
     * @return the records of the first node, by partition.
     */
    Map<Integer, List<Stored>> stopAndCompare(final String topic, final int partitions)
    {
        nodes.forEach(NodeProcess::stop);
        return NodeLogs.sameOnEveryNode(nodes, topic, partitions);
    }

    @Override
    public void close()
    {
        nodes.forEach(NodeProcess::close);
    }
}
