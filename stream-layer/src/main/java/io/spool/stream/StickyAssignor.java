package io.spool.stream;

import io.spool.api.stream.TopicPartition;
import io.spool.stream.internal.group.Assignments;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Keeps every member's owned partitions where it can and moves only what balance needs: owned partitions that
 * are still valid stay put, orphaned ones go to the least loaded eligible member, then single partitions move
 * from the most to the least loaded member until no eligible pair differs by more than one. Every move lowers
 * the sum of squared loads, so the loop ends; each one is needed, so a join or leave moves about
 * {@code partitions / members} partitions, not the whole set. Stateless, thread-safe.
 */
public final class StickyAssignor implements PartitionAssignor
{
    public static final String NAME = "sticky";

    @Override
    public String name()
    {
        return NAME;
    }

    @Override
    public Map<String, List<TopicPartition>> assign(
        final Map<String, Integer> partitionsPerTopic, final Map<String, MemberSubscription> subscriptions)
    {
        final TreeMap<String, List<TopicPartition>> assignment = new TreeMap<>(Assignments.emptyFor(subscriptions));
        final Set<TopicPartition> unclaimed = new HashSet<>();
        for (final Map.Entry<String, Integer> topic : partitionsPerTopic.entrySet())
        {
            if (!Assignments.sortedSubscribersOf(topic.getKey(), subscriptions).isEmpty())
            {
                for (int p = 0; p < topic.getValue(); p++)
                {
                    unclaimed.add(new TopicPartition(topic.getKey(), p));
                }
            }
        }
        keepOwned(subscriptions, assignment, unclaimed);
        final List<TopicPartition> orphans = new ArrayList<>(unclaimed);
        orphans.sort(null);
        for (final TopicPartition orphan : orphans)
        {
            final String target = leastLoadedEligible(orphan, subscriptions, assignment, Integer.MAX_VALUE);
            assignment.get(target).add(orphan);
        }
        boolean moved = true;
        while (moved)
        {
            moved = moveOne(subscriptions, assignment);
        }
        return new HashMap<>(assignment);
    }

    private static void keepOwned(
        final Map<String, MemberSubscription> subscriptions,
        final TreeMap<String, List<TopicPartition>> assignment,
        final Set<TopicPartition> unclaimed)
    {
        for (final Map.Entry<String, List<TopicPartition>> member : assignment.entrySet())
        {
            final MemberSubscription subscription = subscriptions.get(member.getKey());
            for (final TopicPartition owned : subscription.ownedPartitions())
            {
                if (subscription.topics().contains(owned.topic()) && unclaimed.remove(owned))
                {
                    member.getValue().add(owned);
                }
            }
        }
    }

    private static boolean moveOne(
        final Map<String, MemberSubscription> subscriptions, final TreeMap<String, List<TopicPartition>> assignment)
    {
        final List<String> byLoadDescending = new ArrayList<>(assignment.keySet());
        byLoadDescending.sort(Comparator.comparingInt((String m) -> assignment.get(m).size()).reversed()
            .thenComparing(Comparator.naturalOrder()));
        for (final String donor : byLoadDescending)
        {
            final List<TopicPartition> donorPartitions = assignment.get(donor);
            for (int i = donorPartitions.size() - 1; i >= 0; i--)
            {
                final TopicPartition candidate = donorPartitions.get(i);
                final String receiver = leastLoadedEligible(
                    candidate, subscriptions, assignment, donorPartitions.size() - 1);
                if (receiver != null)
                {
                    donorPartitions.remove(i);
                    assignment.get(receiver).add(candidate);
                    return true;
                }
            }
        }
        return false;
    }

    /** The subscribed member with the fewest partitions, below {@code loadBelow}; ties go to the smaller id. */
    private static String leastLoadedEligible(
        final TopicPartition partition,
        final Map<String, MemberSubscription> subscriptions,
        final TreeMap<String, List<TopicPartition>> assignment,
        final int loadBelow)
    {
        String best = null;
        int bestLoad = loadBelow;
        for (final Map.Entry<String, List<TopicPartition>> member : assignment.entrySet())
        {
            final int load = member.getValue().size();
            if (load < bestLoad && subscriptions.get(member.getKey()).topics().contains(partition.topic()))
            {
                best = member.getKey();
                bestLoad = load;
            }
        }
        return best;
    }
}
