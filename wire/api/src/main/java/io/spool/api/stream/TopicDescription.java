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

    /** One partition: records {@code [startOffset, endOffset)} are readable. Immutable, thread-safe. */
    public record PartitionDescription(int partition, long startOffset, long endOffset, long sizeInBytes,
        int segmentCount)
    {
    }
}
