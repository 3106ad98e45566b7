package io.spool.stream;

import io.spool.api.stream.TopicPartition;
import io.spool.stream.internal.group.Assignments;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Kafka's round-robin assignor: all partitions of all subscribed topics, sorted by topic and partition, dealt
 * one by one to the members sorted by id, skipping members not subscribed to a partition's topic.
 * Stateless, thread-safe.
 */
public final class RoundRobinAssignor implements PartitionAssignor
{
    public static final String NAME = "roundrobin";

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
        final List<String> members = List.copyOf(new TreeSet<>(subscriptions.keySet()));
        if (members.isEmpty())
        {
            return assignment;
        }
        int cursor = 0;
        for (final Map.Entry<String, Integer> topic : new TreeMap<>(partitionsPerTopic).entrySet())
        {
            if (Assignments.sortedSubscribersOf(topic.getKey(), subscriptions).isEmpty())
            {
                continue;
            }
            for (int p = 0; p < topic.getValue(); p++)
            {
                while (!subscriptions.get(members.get(cursor % members.size())).topics().contains(topic.getKey()))
                {
                    cursor++;
                }
                assignment.get(members.get(cursor % members.size())).add(new TopicPartition(topic.getKey(), p));
                cursor++;
            }
        }
        return assignment;
    }
}
