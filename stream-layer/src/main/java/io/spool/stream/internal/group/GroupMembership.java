package io.spool.stream.internal.group;

import io.spool.api.stream.MemberAssignment;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownMemberException;
import io.spool.stream.ConsumerConfig;
import io.spool.stream.GroupCoordinator;
import io.spool.stream.RebalanceListener;

import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A consumer's side of group membership: joins, heartbeats on every poll, and turns the coordinator's answer into
 * revoke and assign steps on the consumer. Rejoins under a new member id when its session expired. Not
 * thread-safe: owned by one consumer.
 */
public final class GroupMembership
{
    /** What the consumer does when partitions come and go; the membership only decides when. */
    public interface Owner
    {
        Set<TopicPartition> ownedPartitions();

        /** Commits the positions of these partitions if auto-commit is on; must not fail the rebalance. */
        void autoCommitBeforeRevoke(Collection<TopicPartition> partitions);

        void dropPartitions(Collection<TopicPartition> partitions);

        void addPartitions(Collection<TopicPartition> partitions);
    }

    private final GroupCoordinator coordinator;
    private final String groupId;
    private final Set<String> topics;
    private final ConsumerConfig config;
    private final RebalanceListener listener;
    private final Runnable onGroupChange;
    private String memberId;
    private long knownVersion = GroupCoordinator.NO_VERSION;

    /**
     * @param onGroupChange run by the coordinator when this member's view may have changed; must not block
     */
    public GroupMembership(final GroupCoordinator coordinator, final ConsumerConfig config, final Set<String> topics,
        final RebalanceListener listener, final Runnable onGroupChange)
    {
        this.onGroupChange = onGroupChange;
        this.coordinator = coordinator;
        this.groupId = config.groupId();
        this.topics = Set.copyOf(topics);
        this.config = config;
        this.listener = listener;
    }

    public String groupId()
    {
        return groupId;
    }

    public String memberId()
    {
        return memberId;
    }

    /** Heartbeats, then gives up revoked partitions and takes newly assigned ones. */
    public void sync(final Owner owner)
    {
        if (memberId == null)
        {
            memberId = join();
        }
        MemberAssignment assignment;
        try
        {
            assignment = coordinator.heartbeat(groupId, memberId, knownVersion);
        }
        catch (final UnknownMemberException ex)
        {
            final List<TopicPartition> lost = sorted(owner.ownedPartitions());
            owner.dropPartitions(lost);
            if (!lost.isEmpty())
            {
                listener.onPartitionsLost(lost);
            }
            memberId = join();
            assignment = coordinator.heartbeat(groupId, memberId);
        }
        if (assignment == null)
        {
            return;
        }
        knownVersion = assignment.version();
        final Set<TopicPartition> revoked = new HashSet<>(owner.ownedPartitions());
        revoked.removeAll(assignment.partitions());
        if (!revoked.isEmpty())
        {
            final List<TopicPartition> ordered = sorted(revoked);
            try
            {
                owner.autoCommitBeforeRevoke(ordered);
                listener.onPartitionsRevoked(ordered);
            }
            finally
            {
                // even if the listener failed: the view is already acknowledged, so this is the only release
                owner.dropPartitions(ordered);
                coordinator.release(groupId, memberId, ordered);
            }
        }
        final Set<TopicPartition> gained = new HashSet<>(assignment.partitions());
        gained.removeAll(owner.ownedPartitions());
        if (!gained.isEmpty())
        {
            final List<TopicPartition> ordered = sorted(gained);
            owner.addPartitions(ordered);
            listener.onPartitionsAssigned(ordered);
        }
    }

    private String join()
    {
        return coordinator.join(groupId, topics, config.assignor(), config.sessionTimeoutMillis(), onGroupChange);
    }

    public void commit(final Map<TopicPartition, Long> offsets)
    {
        coordinator.commit(groupId, memberId, offsets);
    }

    /** Revokes everything (the listener may commit) and leaves the group so the others take over at once. */
    public void leave(final Owner owner)
    {
        if (memberId == null)
        {
            return;
        }
        final List<TopicPartition> owned = sorted(owner.ownedPartitions());
        try
        {
            if (!owned.isEmpty())
            {
                owner.autoCommitBeforeRevoke(owned);
                listener.onPartitionsRevoked(owned);
            }
        }
        finally
        {
            owner.dropPartitions(owned);
            coordinator.leave(groupId, memberId);
            memberId = null;
            knownVersion = GroupCoordinator.NO_VERSION;
        }
    }

    private static List<TopicPartition> sorted(final Collection<TopicPartition> partitions)
    {
        return List.copyOf(new TreeSet<>(partitions));
    }
}
