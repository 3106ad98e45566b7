package io.spool.api.stream;

import java.util.Set;

/**
 * What a heartbeat tells a group member: the group's generation, the version of this view (a later heartbeat
 * that passes it back gets null while nothing changed) and the partitions it may read now. Partitions it holds
 * that are missing here are ones it must give up. Immutable, thread-safe.
 */
public record MemberAssignment(int generation, long version, Set<TopicPartition> partitions)
{
    public MemberAssignment
    {
        partitions = Set.copyOf(partitions);
    }
}
