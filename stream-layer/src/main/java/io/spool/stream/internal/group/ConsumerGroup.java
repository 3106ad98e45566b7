package io.spool.stream.internal.group;

import io.spool.api.stream.GroupDescription;
import io.spool.api.stream.MemberAssignment;
import io.spool.api.stream.TopicPartition;
import io.spool.stream.GroupCoordinator;
import io.spool.stream.MemberSubscription;
import io.spool.stream.PartitionAssignor;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.ToIntFunction;

/**
 * Membership and partition ownership of one group. The assignor computes a target assignment; a partition
 * changes hands only after its current owner releases it (or its session expires), in the manner of Kafka's
 * cooperative rebalancing, so two members never read one partition at once and the leaver's last commit is the
 * joiner's start. A member whose view has not changed gets no new assignment object, so steady polling allocates
 * nothing. Not thread-safe: {@link GroupCoordinator} locks the group around every call.
 */
public final class ConsumerGroup
{
    public final String id;
    public final PartitionAssignor assignor;
    private final Map<String, Member> members = new TreeMap<>();
    private final Map<TopicPartition, String> owners = new HashMap<>();
    private Map<String, List<TopicPartition>> target = new HashMap<>();
    private int generation;
    /** Bumped whenever a member's readable partitions may have changed: rebalances and releases. */
    private long version;
    private long lastExpiryScan = Long.MIN_VALUE;

    public ConsumerGroup(final String id, final PartitionAssignor assignor)
    {
        this.id = id;
        this.assignor = assignor;
    }

    public int generation()
    {
        return generation;
    }

    public boolean isEmpty()
    {
        return members.isEmpty();
    }

    public boolean hasMember(final String memberId)
    {
        return members.containsKey(memberId);
    }

    /**
     * @param onChange run (under the group's lock, so it must not block) whenever the member's view may have
     *                 changed, so a member parked in a long poll wakes to take part in the rebalance
     */
    public void add(final String memberId, final Set<String> topics, final long sessionTimeoutMillis, final long now,
        final Runnable onChange, final ToIntFunction<String> partitionCount)
    {
        members.put(memberId, new Member(Set.copyOf(topics), sessionTimeoutMillis, now, onChange));
        rebalance(partitionCount);
    }

    public void remove(final String memberId, final ToIntFunction<String> partitionCount)
    {
        members.remove(memberId);
        owners.values().removeIf(memberId::equals);
        rebalance(partitionCount);
    }

    /** Removes members whose last heartbeat is older than their session timeout; returns how many. */
    public int expire(final long now, final ToIntFunction<String> partitionCount)
    {
        if (now == lastExpiryScan)
        {
            // heartbeats only move sessions forward, so nobody can have expired since a scan at this same time
            return 0;
        }
        lastExpiryScan = now;
        List<String> expired = null;
        for (final Map.Entry<String, Member> entry : members.entrySet())
        {
            if (now - entry.getValue().lastHeartbeat > entry.getValue().sessionTimeoutMillis)
            {
                if (expired == null)
                {
                    expired = new ArrayList<>();
                }
                expired.add(entry.getKey());
            }
        }
        if (expired == null)
        {
            return 0;
        }
        members.keySet().removeAll(expired);
        owners.values().removeIf(expired::contains);
        rebalance(partitionCount);
        return expired.size();
    }

    /**
     * Refreshes the session and hands the member every target partition nobody else still holds.
     *
     * @param knownVersion the {@link MemberAssignment#version()} the member last saw
     * @return null when nothing changed since {@code knownVersion}, so a steady member's poll allocates nothing
     */
    public MemberAssignment heartbeat(final String memberId, final long now, final long knownVersion)
    {
        members.get(memberId).lastHeartbeat = now;
        if (knownVersion == version)
        {
            return null;
        }
        final Set<TopicPartition> readable = new HashSet<>();
        for (final TopicPartition partition : target.getOrDefault(memberId, List.of()))
        {
            final String owner = owners.putIfAbsent(partition, memberId);
            if (owner == null || owner.equals(memberId))
            {
                readable.add(partition);
            }
        }
        return new MemberAssignment(generation, version, readable);
    }

    public void release(final String memberId, final Iterable<TopicPartition> partitions)
    {
        boolean released = false;
        for (final TopicPartition partition : partitions)
        {
            released |= owners.remove(partition, memberId);
        }
        if (released)
        {
            viewsChanged();
        }
    }

    public boolean owns(final String memberId, final TopicPartition partition)
    {
        return memberId.equals(owners.get(partition));
    }

    public void rebalance(final ToIntFunction<String> partitionCount)
    {
        final Map<String, Integer> partitionsPerTopic = new HashMap<>();
        final Map<String, MemberSubscription> subscriptions = new HashMap<>();
        for (final Map.Entry<String, Member> entry : members.entrySet())
        {
            for (final String topic : entry.getValue().topics)
            {
                final int count = partitionCount.applyAsInt(topic);
                if (count > 0)
                {
                    partitionsPerTopic.put(topic, count);
                }
            }
            subscriptions.put(entry.getKey(), new MemberSubscription(
                entry.getValue().topics, target.getOrDefault(entry.getKey(), List.of())));
        }
        target = assignor.assign(partitionsPerTopic, subscriptions);
        dropOwnersOfVanishedPartitions(partitionsPerTopic);
        generation++;
        viewsChanged();
    }

    private void viewsChanged()
    {
        version++;
        for (final Member member : members.values())
        {
            member.onChange.run();
        }
    }

    public GroupDescription describe()
    {
        final Map<String, Set<String>> subscriptions = new HashMap<>();
        members.forEach((memberId, member) -> subscriptions.put(memberId, member.topics));
        final Map<String, List<TopicPartition>> sortedTarget = new HashMap<>();
        target.forEach((memberId, partitions) ->
        {
            final List<TopicPartition> sorted = new ArrayList<>(partitions);
            sorted.sort(null);
            sortedTarget.put(memberId, List.copyOf(sorted));
        });
        return new GroupDescription(id, generation, assignor.name(), sortedTarget, subscriptions);
    }

    private void dropOwnersOfVanishedPartitions(final Map<String, Integer> partitionsPerTopic)
    {
        final Iterator<TopicPartition> owned = owners.keySet().iterator();
        while (owned.hasNext())
        {
            final TopicPartition partition = owned.next();
            final Integer count = partitionsPerTopic.get(partition.topic());
            if (count == null || partition.partition() >= count)
            {
                owned.remove();
            }
        }
    }

    private static final class Member
    {
        final Set<String> topics;
        final long sessionTimeoutMillis;
        final Runnable onChange;
        long lastHeartbeat;

        Member(final Set<String> topics, final long sessionTimeoutMillis, final long lastHeartbeat,
            final Runnable onChange)
        {
            this.topics = topics;
            this.sessionTimeoutMillis = sessionTimeoutMillis;
            this.lastHeartbeat = lastHeartbeat;
            this.onChange = onChange;
        }
    }
}
