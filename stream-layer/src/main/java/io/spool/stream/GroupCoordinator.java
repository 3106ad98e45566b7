package io.spool.stream;

import io.spool.api.stream.CommitFailedException;
import io.spool.api.stream.GroupDescription;
import io.spool.api.stream.InvalidGroupException;
import io.spool.api.InvalidRequestException;
import io.spool.api.stream.MemberAssignment;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownMemberException;
import io.spool.stream.internal.group.CommittedOffsetStore;
import io.spool.stream.internal.group.ConsumerGroup;
import io.spool.stream.internal.topic.TopicNames;
import org.agrona.concurrent.EpochClock;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * Runs every consumer group of an engine: members join and leave, heartbeat within their session timeout (read
 * from the injected clock), share partitions through the group's assignor, and commit offsets into the
 * {@link CommittedOffsetStore} only for partitions they own. Sessions are checked on every call for the group
 * and by {@link #expireSessions()}, so a dead member loses its partitions as soon as anyone looks.
 * Thread-safe: each group is locked on its own; the offset store has its own lock.
 */
public final class GroupCoordinator
{
    public static final long DEFAULT_SESSION_TIMEOUT_MILLIS = 45_000;
    /** Passed as the known version by a member that has seen no assignment yet. */
    public static final long NO_VERSION = -1;
    private static final Runnable NO_NOTICE = () -> { };

    private final EpochClock clock;
    private final CommittedOffsetStore offsets;
    private final ToIntFunction<String> partitionCount;
    private final ToLongFunction<TopicPartition> endOffset;
    private final Map<String, ConsumerGroup> groups = new ConcurrentHashMap<>();
    private final AtomicLong memberSequence = new AtomicLong();

    /**
     * @param partitionCount a topic's partition count, or 0 when it does not exist
     * @param endOffset      a partition's log end offset, or -1 when the partition does not exist
     */
    GroupCoordinator(final EpochClock clock, final CommittedOffsetStore offsets,
        final ToIntFunction<String> partitionCount, final ToLongFunction<TopicPartition> endOffset)
    {
        this.clock = clock;
        this.offsets = offsets;
        this.partitionCount = partitionCount;
        this.endOffset = endOffset;
    }

    /**
     * Adds a member and rebalances. The first member fixes the group's assignor; later members must name the same.
     *
     * @return the new member's id
     */
    public String join(final String groupId, final Set<String> topics, final String assignorName,
        final long sessionTimeoutMillis)
    {
        return join(groupId, topics, assignorName, sessionTimeoutMillis, NO_NOTICE);
    }

    /**
     * Like {@link #join(String, Set, String, long)}, and runs {@code onChange} whenever the member's view may have
     * changed (a rebalance, or another member letting go of a partition), so a member waiting in a long poll can
     * wake at once. It runs under the group's lock and must not block; unparking a thread is the intended use.
     */
    public String join(final String groupId, final Set<String> topics, final String assignorName,
        final long sessionTimeoutMillis, final Runnable onChange)
    {
        TopicNames.validateGroup(groupId);
        if (topics.isEmpty())
        {
            throw new InvalidGroupException("a member of group \"" + groupId + "\" must subscribe to a topic");
        }
        topics.forEach(TopicNames::validateTopic);
        if (sessionTimeoutMillis <= 0)
        {
            throw new InvalidGroupException("session timeout must be positive, was " + sessionTimeoutMillis);
        }
        final PartitionAssignor assignor = PartitionAssignor.named(assignorName);
        final String memberId = groupId + "-member-" + memberSequence.incrementAndGet();
        while (true)
        {
            final ConsumerGroup group = groups.computeIfAbsent(groupId, id -> new ConsumerGroup(id, assignor));
            synchronized (group)
            {
                if (groups.get(groupId) != group)
                {
                    continue;
                }
                if (!group.assignor.name().equals(assignor.name()))
                {
                    throw new InvalidGroupException("group \"" + groupId + "\" uses assignor " +
                        group.assignor.name() + ", a member cannot join it with " + assignor.name());
                }
                final long now = clock.time();
                group.expire(now, partitionCount);
                group.add(memberId, topics, sessionTimeoutMillis, now, onChange, partitionCount);
                return memberId;
            }
        }
    }

    /** Removes a member at once (its partitions go to the others) and rebalances. */
    public void leave(final String groupId, final String memberId)
    {
        final ConsumerGroup group = groups.get(groupId);
        if (group == null)
        {
            return;
        }
        synchronized (group)
        {
            if (group.hasMember(memberId))
            {
                group.remove(memberId, partitionCount);
            }
            dropIfEmpty(group);
        }
    }

    /**
     * Keeps a member's session alive and says which partitions it may read now.
     *
     * @throws UnknownMemberException when the member left or its session expired; it must join again
     */
    public MemberAssignment heartbeat(final String groupId, final String memberId)
    {
        return heartbeat(groupId, memberId, NO_VERSION);
    }

    /**
     * Like {@link #heartbeat(String, String)} but returns null when the member's view is still the one of
     * {@code knownVersion}.
     */
    public MemberAssignment heartbeat(final String groupId, final String memberId, final long knownVersion)
    {
        final ConsumerGroup group = existingGroup(groupId, memberId);
        synchronized (group)
        {
            final long now = clock.time();
            group.expire(now, partitionCount);
            if (!group.hasMember(memberId))
            {
                dropIfEmpty(group);
                throw unknownMember(groupId, memberId);
            }
            return group.heartbeat(memberId, now, knownVersion);
        }
    }

    /** A member gives up partitions it was told to revoke, so the members meant to have them can take them. */
    public void release(final String groupId, final String memberId, final Collection<TopicPartition> partitions)
    {
        final ConsumerGroup group = groups.get(groupId);
        if (group == null)
        {
            return;
        }
        synchronized (group)
        {
            group.release(memberId, partitions);
        }
    }

    /**
     * Commits offsets for partitions the member owns.
     *
     * @throws CommitFailedException  when the member does not own one of the partitions (nothing is committed)
     * @throws UnknownMemberException when the member is no longer in the group
     * @throws InvalidRequestException when an offset is above its partition's log end (nothing is committed)
     */
    public void commit(final String groupId, final String memberId, final Map<TopicPartition, Long> newOffsets)
    {
        final ConsumerGroup group = existingGroup(groupId, memberId);
        synchronized (group)
        {
            group.expire(clock.time(), partitionCount);
            if (!group.hasMember(memberId))
            {
                throw unknownMember(groupId, memberId);
            }
            for (final TopicPartition partition : newOffsets.keySet())
            {
                if (!group.owns(memberId, partition))
                {
                    throw new CommitFailedException("member " + memberId + " of group \"" + groupId +
                        "\" does not own " + partition + " in generation " + group.generation() +
                        "; it was reassigned, so this commit is refused");
                }
            }
            checkWithinLogs(newOffsets);
            offsets.commit(groupId, newOffsets);
        }
    }

    /**
     * Commits for a consumer that assigns its partitions by hand and only uses the group id to keep offsets.
     *
     * @throws CommitFailedException when the group has active members, whose positions this would overwrite
     * @throws InvalidRequestException when an offset is above its partition's log end (nothing is committed)
     */
    public void commitStandalone(final String groupId, final Map<TopicPartition, Long> newOffsets)
    {
        commitWithoutMembers(groupId, newOffsets, members -> new CommitFailedException("group \"" + groupId +
            "\" has active members; a consumer that assigned its partitions by hand cannot commit for it"));
    }

    /**
     * Sets a group's committed offsets from outside it, as an operator's offset reset does (Kafka's
     * {@code kafka-consumer-groups --reset-offsets}).
     *
     * @throws InvalidGroupException   when the group has live members: they read on from their own positions and
     *                                 would commit over the reset, so they must stop first
     * @throws InvalidRequestException when an offset is above its partition's log end (nothing is committed)
     */
    public void resetOffsets(final String groupId, final Map<TopicPartition, Long> newOffsets)
    {
        commitWithoutMembers(groupId, newOffsets, members -> new InvalidGroupException("group \"" + groupId +
            "\" has live members " + members + "; stop them before resetting its offsets"));
    }

    /** Commits unless the group has live members, under its lock so that none joins before the commit. */
    private void commitWithoutMembers(final String groupId, final Map<TopicPartition, Long> newOffsets,
        final Function<Set<String>, RuntimeException> refusal)
    {
        TopicNames.validateGroup(groupId);
        final ConsumerGroup group = groups.get(groupId);
        if (group == null)
        {
            checkWithinLogs(newOffsets);
            offsets.commit(groupId, newOffsets);
            return;
        }
        synchronized (group)
        {
            group.expire(clock.time(), partitionCount);
            if (!group.isEmpty())
            {
                throw refusal.apply(group.describe().members());
            }
            checkWithinLogs(newOffsets);
            offsets.commit(groupId, newOffsets);
        }
    }

    /**
     * A committed offset is the position of the next record to read, so the log end is the highest that means
     * anything; one above it would skip whatever records take the offsets in between once they are written.
     */
    private void checkWithinLogs(final Map<TopicPartition, Long> newOffsets)
    {
        for (final Map.Entry<TopicPartition, Long> entry : newOffsets.entrySet())
        {
            final long end = endOffset.applyAsLong(entry.getKey());
            if (end >= 0 && entry.getValue() > end)
            {
                throw new InvalidRequestException("cannot commit offset " + entry.getValue() + " for " +
                    entry.getKey() + ": " + entry.getKey() + " ends at " + end + ", and a committed offset is the " +
                    "position of the next record to read, at most the end; nothing was committed");
            }
        }
    }

    /**
     * The committed offset of a group for a partition, or
     * {@link io.spool.api.stream.GroupReport.PartitionPosition#NO_OFFSET}.
     */
    public long committed(final String groupId, final TopicPartition partition)
    {
        return offsets.committed(groupId, partition);
    }

    public Map<TopicPartition, Long> committedOffsets(final String groupId)
    {
        return offsets.committedOffsets(groupId);
    }

    /**
     * Forgets a group's committed offset for one partition, as a cluster's group deletion does in each partition:
     * the group's consumers then start there by their reset policy.
     */
    public void forgetOffset(final String groupId, final TopicPartition partition)
    {
        offsets.forget(groupId, partition);
    }

    /**
     * Forgets a group's committed offsets.
     *
     * @throws InvalidGroupException when the group still has live members
     */
    public void deleteGroup(final String groupId)
    {
        TopicNames.validateGroup(groupId);
        final ConsumerGroup group = groups.get(groupId);
        if (group != null)
        {
            synchronized (group)
            {
                group.expire(clock.time(), partitionCount);
                if (!group.isEmpty())
                {
                    throw new InvalidGroupException("group \"" + groupId + "\" has live members " +
                        group.describe().members() + "; they must leave before the group is deleted");
                }
                dropIfEmpty(group);
            }
        }
        offsets.deleteGroup(groupId);
    }

    /** Expires dead members of every group; returns how many were removed. */
    public int expireSessions()
    {
        int expired = 0;
        for (final ConsumerGroup group : groups.values())
        {
            synchronized (group)
            {
                expired += group.expire(clock.time(), partitionCount);
                dropIfEmpty(group);
            }
        }
        return expired;
    }

    /** Recomputes every group's assignment, for example after a topic was created or deleted. */
    public void topicsChanged()
    {
        for (final ConsumerGroup group : groups.values())
        {
            synchronized (group)
            {
                if (!group.isEmpty())
                {
                    group.rebalance(partitionCount);
                }
            }
        }
    }

    /** Snapshot of a group with active members, or null when it has none. */
    public GroupDescription describe(final String groupId)
    {
        final ConsumerGroup group = groups.get(groupId);
        if (group == null)
        {
            return null;
        }
        synchronized (group)
        {
            return group.isEmpty() ? null : group.describe();
        }
    }

    /** Ids of the groups with active members or committed offsets. */
    public List<String> groupIds()
    {
        final TreeSet<String> ids = new TreeSet<>(offsets.groups());
        groups.forEach((id, group) ->
        {
            synchronized (group)
            {
                if (!group.isEmpty())
                {
                    ids.add(id);
                }
            }
        });
        return new ArrayList<>(ids);
    }

    private ConsumerGroup existingGroup(final String groupId, final String memberId)
    {
        final ConsumerGroup group = groups.get(groupId);
        if (group == null)
        {
            throw unknownMember(groupId, memberId);
        }
        return group;
    }

    private void dropIfEmpty(final ConsumerGroup group)
    {
        if (group.isEmpty())
        {
            groups.remove(group.id, group);
        }
    }

    private static UnknownMemberException unknownMember(final String groupId, final String memberId)
    {
        return new UnknownMemberException("member " + memberId + " is not in group \"" + groupId +
            "\"; it left or its session expired, so it must join again");
    }
}
