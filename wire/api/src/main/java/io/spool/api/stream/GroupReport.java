package io.spool.api.stream;


import java.util.List;

/**
 * What {@code StreamEngine.describeGroup} finds about a consumer group: its members, if it has any, and per
 * partition of the topics it committed for or subscribes to, where it stands. Immutable, thread-safe.
 *
 * @param groupId    the group.
 * @param membership generation, assignor, members and their partitions; null when the group has no live member.
 * @param partitions sorted by topic and partition.
 */
public record GroupReport(String groupId, GroupDescription membership, List<PartitionPosition> partitions)
{
    public GroupReport
    {
        partitions = List.copyOf(partitions);
    }

    /** Whether the group has live members (Kafka's "Stable"); an offset reset is refused while it has. */
    public boolean active()
    {
        return membership != null;
    }

    /**
     * Where the group stands on one partition.
     *
     * @param committed   the group's committed offset, or {@link #NO_OFFSET}.
     * @param startOffset the partition's first stored offset.
     * @param endOffset   the offset its next record gets.
     * @param lag         records after the committed offset (after the start when none is committed).
     */
    public record PartitionPosition(TopicPartition partition, long committed, long startOffset, long endOffset,
        long lag)
    {
        public static final long NO_OFFSET = -1L;
    }
}
