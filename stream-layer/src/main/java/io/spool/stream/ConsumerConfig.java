package io.spool.stream;

import io.spool.api.stream.InvalidGroupException;
import io.spool.stream.internal.topic.TopicNames;

/**
 * Settings of a {@link StreamConsumer}. {@code groupId} may be null for a consumer that neither joins a group
 * nor commits. Immutable, thread-safe.
 *
 * @param groupId                  the group whose committed offsets (and, after subscribe, membership) it uses
 * @param resetPolicy              where to start a partition that has no position and no committed offset
 * @param autoCommit               commit positions every {@code autoCommitIntervalMillis} (checked in poll), when
 *                                 partitions are revoked, and on close
 * @param autoCommitIntervalMillis on the engine clock
 * @param sessionTimeoutMillis     how long the group keeps a member that stops polling, on the engine clock
 * @param assignor                 range, roundrobin or sticky
 */
public record ConsumerConfig(String groupId, OffsetResetPolicy resetPolicy, boolean autoCommit,
    long autoCommitIntervalMillis, long sessionTimeoutMillis, String assignor)
{
    public static final long DEFAULT_AUTO_COMMIT_INTERVAL_MILLIS = 5_000;

    public ConsumerConfig
    {
        if (groupId != null)
        {
            TopicNames.validateGroup(groupId);
        }
        if (resetPolicy == null)
        {
            throw new InvalidGroupException("offset reset policy must not be null");
        }
        if (autoCommit && groupId == null)
        {
            throw new InvalidGroupException("auto-commit needs a group id to commit under");
        }
        if (autoCommitIntervalMillis < 0)
        {
            throw new InvalidGroupException("auto-commit interval must be >= 0, was " + autoCommitIntervalMillis);
        }
        if (sessionTimeoutMillis <= 0)
        {
            throw new InvalidGroupException("session timeout must be positive, was " + sessionTimeoutMillis);
        }
        PartitionAssignor.named(assignor);
    }

    /** No group, start at the earliest offset, no auto-commit. */
    public static ConsumerConfig standalone()
    {
        return new ConsumerConfig(null, OffsetResetPolicy.EARLIEST, false, DEFAULT_AUTO_COMMIT_INTERVAL_MILLIS,
            GroupCoordinator.DEFAULT_SESSION_TIMEOUT_MILLIS, RangeAssignor.NAME);
    }

    /** In group {@code groupId}, start at the earliest offset, auto-commit every 5 s, range assignor. */
    public static ConsumerConfig group(final String groupId)
    {
        return new ConsumerConfig(groupId, OffsetResetPolicy.EARLIEST, true, DEFAULT_AUTO_COMMIT_INTERVAL_MILLIS,
            GroupCoordinator.DEFAULT_SESSION_TIMEOUT_MILLIS, RangeAssignor.NAME);
    }

    public ConsumerConfig withResetPolicy(final OffsetResetPolicy policy)
    {
        return new ConsumerConfig(groupId, policy, autoCommit, autoCommitIntervalMillis, sessionTimeoutMillis,
            assignor);
    }

    public ConsumerConfig withAutoCommit(final boolean enabled, final long intervalMillis)
    {
        return new ConsumerConfig(groupId, resetPolicy, enabled, intervalMillis, sessionTimeoutMillis, assignor);
    }

    public ConsumerConfig withSessionTimeout(final long millis)
    {
        return new ConsumerConfig(groupId, resetPolicy, autoCommit, autoCommitIntervalMillis, millis, assignor);
    }

    public ConsumerConfig withAssignor(final String name)
    {
        return new ConsumerConfig(groupId, resetPolicy, autoCommit, autoCommitIntervalMillis, sessionTimeoutMillis,
            name);
    }
}
