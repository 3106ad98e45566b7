package io.spool.wire.kafka;

import java.util.List;

/**
 * Who leads each partition, for the APIs that must be answered by a partition's leader (Produce, Fetch,
 * ListOffsets) and for Metadata, and who coordinates consumer groups, for FindCoordinator and the group APIs: on a
 * single node this node, forever, at leader epoch 0; on a cluster node what the {@link KafkaCluster} knows.
 * Thread-safe.
 */
final class PartitionLeaders
{
    /** The leader epoch of a single node, which leads forever. */
    static final int SINGLE_NODE_EPOCH = 0;

    private final KafkaCluster cluster;
    private final KafkaCluster.Placement single;

    /** @param cluster the cluster this node belongs to, or null for a single node. */
    PartitionLeaders(final KafkaCluster cluster, final int nodeId)
    {
        this.cluster = cluster;
        this.single = new KafkaCluster.Placement(nodeId, SINGLE_NODE_EPOCH, List.of(nodeId), true);
    }

    boolean isCluster()
    {
        return cluster != null;
    }

    /** The cluster; only when {@link #isCluster()}. */
    KafkaCluster cluster()
    {
        return cluster;
    }

    /** The node that coordinates every consumer group; -1 while a cluster node knows none. */
    int groupCoordinator()
    {
        return cluster == null ? single.leader() : cluster.groupCoordinator();
    }

    /** Whether this node coordinates the consumer groups, and so serves the group APIs. */
    boolean coordinatesGroups()
    {
        return groupCoordinator() == single.leader();
    }

    KafkaCluster.Placement placement(final String topic, final int partition)
    {
        return cluster == null ? single : cluster.placement(topic, partition);
    }
}
