package io.spool.wire.server;

import io.spool.api.stream.TopicDescription;

import java.util.List;

/**
 * Which partitions a cluster node's log holds a copy of. A topic of a cluster is created on every node, but a
 * partition's records reach only the nodes it is placed on, so another node's log of it stays empty: its native
 * server refuses to read such a partition, or to take a subscription's deliveries or a group's commits of it, rather
 * than answer from the empty log, and its description names the nodes that hold it. The cluster module implements
 * it. Implementations are thread-safe and must not block the calling thread (a connection's event loop).
 */
public interface HeldPartitions
{
    /** A server that is no cluster node holds every partition of its engine. */
    HeldPartitions ALL = new HeldPartitions()
    {
        @Override
        public boolean requireHeld(final String topic, final int partition)
        {
            return true;
        }

        @Override
        public List<Integer> holdersElsewhere(final String topic, final int partition)
        {
            return List.of();
        }
    };

    /**
     * @return true when the answer holds for as long as the partition's log, false when the node cannot tell yet
     *         (it has not learnt the topic's placement): the read goes on either way.
     * @throws io.spool.api.InvalidRequestException naming the nodes that hold the partition, when this node holds
     *                                              no copy of it.
     */
    boolean requireHeld(String topic, int partition);

    /**
     * The ids of the nodes that hold the partition when this node holds no copy; empty when it holds one or cannot
     * tell yet.
     */
    List<Integer> holdersElsewhere(String topic, int partition);

    /**
     * As {@link #requireHeld} for every partition of the topic, for what reads them all (a subscription).
     *
     * @throws io.spool.api.InvalidRequestException naming the first partition this node holds no copy of.
     */
    default void requireAllHeld(final String topic, final int partitionCount)
    {
        for (int partition = 0; partition < partitionCount; partition++)
        {
            requireHeld(topic, partition);
        }
    }

    /** The description as this node's log has it, each partition it holds no copy of naming the nodes that do. */
    default TopicDescription withHoldersElsewhere(final TopicDescription description)
    {
        return new TopicDescription(description.name(), description.config(), description.partitions().stream()
            .map(partition -> partition.heldElsewhereBy(holdersElsewhere(description.name(), partition.partition())))
            .toList());
    }
}
