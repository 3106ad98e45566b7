package io.spool.api.stream;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A snapshot of one consumer group: its generation, assignor, the partitions each member is meant to own and
 * the topics it subscribes to. Immutable, thread-safe.
 */
public record GroupDescription(
    String groupId,
    int generation,
    String assignor,
    Map<String, List<TopicPartition>> targetAssignment,
    Map<String, Set<String>> subscriptions)
{
    public GroupDescription
    {
        targetAssignment = Map.copyOf(targetAssignment);
        subscriptions = Map.copyOf(subscriptions);
    }

    public Set<String> members()
    {
        return subscriptions.keySet();
    }
}
