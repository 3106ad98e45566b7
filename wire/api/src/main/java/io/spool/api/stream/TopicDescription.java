package io.spool.api.stream;

import java.util.List;

/**
 * A snapshot of a topic: its settings and each partition's offset range and size. Immutable, thread-safe.
 */
public record TopicDescription(String name, TopicConfig config, List<PartitionDescription> partitions)
{
    public TopicDescription
    {
        partitions = List.copyOf(partitions);
    }

    /**
     * One partition: records {@code [startOffset, endOffset)} are readable. Immutable, thread-safe.
     *
     * @param heldElsewhere the ids of the nodes that hold the partition, when the server that described it is a
     *                      cluster node holding no copy of it (its offsets and size are then of its empty log);
     *                      empty when it holds one.
     */
    public record PartitionDescription(int partition, long startOffset, long endOffset, long sizeInBytes,
        int segmentCount, List<Integer> heldElsewhere)
    {
        public PartitionDescription
        {
            heldElsewhere = List.copyOf(heldElsewhere);
        }

        /** A partition the describing server holds. */
        public PartitionDescription(final int partition, final long startOffset, final long endOffset,
            final long sizeInBytes, final int segmentCount)
        {
            this(partition, startOffset, endOffset, sizeInBytes, segmentCount, List.of());
        }

        /** This partition as described by a cluster node that holds no copy of it: {@code holders} do. */
        public PartitionDescription heldElsewhereBy(final List<Integer> holders)
        {
            return new PartitionDescription(partition, startOffset, endOffset, sizeInBytes, segmentCount, holders);
        }
    }
}
