package io.spool.stream;

import java.util.Set;

/**
 * What a heartbeat tells a group member: the group's generation and the partitions it may read now. Partitions
 * it holds that are missing here are ones it must give up. Immutable, thread-safe.
 */
public record MemberAssignment(int generation, Set<TopicPartition> partitions)
{
    public MemberAssignment
    {
        partitions = Set.copyOf(partitions);
    }
}
