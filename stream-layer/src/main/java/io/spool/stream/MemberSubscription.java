package io.spool.stream;

import io.spool.api.stream.TopicPartition;

import java.util.List;
import java.util.Set;

/**
 * What one group member asks an assignor for: the topics it subscribes to, and the partitions it owns now (which
 * only the sticky assignor looks at). Immutable, thread-safe.
 */
public record MemberSubscription(Set<String> topics, List<TopicPartition> ownedPartitions)
{
    public MemberSubscription
    {
        topics = Set.copyOf(topics);
        ownedPartitions = List.copyOf(ownedPartitions);
    }

    public static MemberSubscription of(final Set<String> topics)
    {
        return new MemberSubscription(topics, List.of());
    }
}
