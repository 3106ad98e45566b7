package io.spool.stream.internal.group;

import io.spool.api.stream.TopicPartition;
import io.spool.stream.MemberSubscription;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Helpers the assignors share. Stateless, thread-safe.
 */
public final class Assignments
{
    private Assignments()
    {
    }

    public static Map<String, List<TopicPartition>> emptyFor(final Map<String, MemberSubscription> subscriptions)
    {
        final Map<String, List<TopicPartition>> assignment = new HashMap<>();
        for (final String member : subscriptions.keySet())
        {
            assignment.put(member, new ArrayList<>());
        }
        return assignment;
    }

    public static List<String> sortedSubscribersOf(final String topic, final Map<String, MemberSubscription> subscriptions)
    {
        final List<String> members = new ArrayList<>();
        for (final Map.Entry<String, MemberSubscription> entry : subscriptions.entrySet())
        {
            if (entry.getValue().topics().contains(topic))
            {
                members.add(entry.getKey());
            }
        }
        members.sort(null);
        return members;
    }
}
