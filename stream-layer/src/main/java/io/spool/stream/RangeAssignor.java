package io.spool.stream;

import io.spool.api.stream.TopicPartition;
import io.spool.stream.internal.group.Assignments;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Kafka's range assignor: per topic, the members subscribed to it (sorted by id) take contiguous ranges of
 * partitions, and the first {@code partitions % members} of them take one extra. Stateless, thread-safe.
 */
public final class RangeAssignor implements PartitionAssignor
{
    public static final String NAME = "range";

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public Map<String, List<TopicPartition>> assign(
        final Map<String, Integer> partitionsPerTopic, final Map<String, MemberSubscription> subscriptions)
    {
        final Map<String, List<TopicPartition>> assignment = Assignments.emptyFor(subscriptions);
        for (final Map.Entry<String, Integer> topic : new TreeMap<>(partitionsPerTopic).entrySet())
        {
            final List<String> members = Assignments.sortedSubscribersOf(topic.getKey(), subscriptions);
            if (members.isEmpty())
            {
                continue;
            }
            final int partitions = topic.getValue();
            final int base = partitions / members.size();
            final int extra = partitions % members.size();
            int next = 0;
            for (int i = 0; i < members.size(); i++)
            {
                final int count = base + (i < extra ? 1 : 0);
                final List<TopicPartition> owned = assignment.get(members.get(i));
                for (int p = next; p < next + count; p++)
                {
                    owned.add(new TopicPartition(topic.getKey(), p));
                }
                next += count;
            }
        }
        return assignment;
    }
}
