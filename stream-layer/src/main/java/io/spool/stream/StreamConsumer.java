package io.spool.stream;

import io.spool.api.EngineClosedException;
import io.spool.api.log.OffsetOutOfRangeException;
import io.spool.api.log.RecordView;
import io.spool.api.stream.CommitFailedException;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.IllegalClientStateException;
import io.spool.api.stream.InvalidGroupException;
import io.spool.api.InvalidRequestException;
import io.spool.api.stream.NoOffsetForPartitionException;
import io.spool.api.stream.PartitionNotAssignedException;
import io.spool.api.stream.StreamReader;
import io.spool.api.stream.StreamRecordHandler;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownMemberException;
import io.spool.api.stream.UnknownPartitionException;
import io.spool.api.stream.UnknownTopicException;
import io.spool.log.RecordHandler;
import io.spool.stream.internal.consumer.PartitionCursor;
import io.spool.stream.internal.consumer.PartitionCursors;
import io.spool.stream.internal.group.ConsumerOffsets;
import io.spool.stream.internal.group.GroupMembership;
import org.agrona.concurrent.EpochClock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * Reads topic partitions by offset: assigned by hand ({@link #assign}) or shared with a consumer group
 * ({@link #subscribe}). Positions move with {@code seek*} and with every poll; polls wait for data up to their
 * timeout without spinning. Two poll paths: zero-copy views handed to a {@link StreamRecordHandler}, and copied
 * {@link ConsumerRecord}s. Reading never changes the log, so any number of consumers replay the same range and
 * see the same bytes. Not thread-safe: one consumer per thread.
 */
public final class StreamConsumer implements StreamReader
{
    private static final Logger LOGGER = LoggerFactory.getLogger(StreamConsumer.class);

    private final TopicRegistry topics;
    private final GroupCoordinator coordinator;
    private final EpochClock clock;
    private final ConsumerConfig config;
    private final PartitionCursors cursors = new PartitionCursors();
    private final ConsumerOffsets consumerOffsets;
    private final Dispatch dispatch = new Dispatch();
    private final Owner owner = new Owner();
    /**
     * A group member waiting for records still heartbeats this often (a third of its session), so a long poll
     * never costs it its partitions; group changes wake it at once anyway.
     */
    private final long heartbeatIntervalNanos;
    private int nextStart;
    private GroupMembership membership;
    private long lastAutoCommit;
    private boolean closed;

    StreamConsumer(final TopicRegistry topics, final GroupCoordinator coordinator, final EpochClock clock,
        final ConsumerConfig config)
    {
        this.topics = topics;
        this.coordinator = coordinator;
        this.clock = clock;
        this.config = config;
        this.consumerOffsets = new ConsumerOffsets(coordinator, config.resetPolicy(), cursors);
        this.lastAutoCommit = clock.time();
        this.heartbeatIntervalNanos = TimeUnit.MILLISECONDS.toNanos(Math.max(1, config.sessionTimeoutMillis() / 3));
    }

    /**
     * Reads exactly these partitions (replacing any earlier assignment); kept positions stay.
     *
     * @throws UnknownTopicException     when a topic does not exist
     * @throws UnknownPartitionException when a partition number is out of range
     * @throws IllegalClientStateException when the consumer subscribed to a group
     */
    public void assign(final Collection<TopicPartition> partitions)
    {
        ensureOpen();
        if (membership != null)
        {
            throw new IllegalClientStateException("consumer subscribed to group \"" + membership.groupId() +
                "\"; it cannot also assign partitions by hand");
        }
        final Map<TopicPartition, Topic> resolved = new HashMap<>();
        for (final TopicPartition partition : partitions)
        {
            final Topic topic = topics.topic(partition.topic());
            topic.partition(partition.partition());
            resolved.put(partition, topic);
        }
        final List<TopicPartition> dropped = new ArrayList<>(cursors.partitions());
        dropped.removeAll(resolved.keySet());
        owner.dropPartitions(dropped);
        for (final TopicPartition partition : new TreeSet<>(resolved.keySet()))
        {
            if (!cursors.contains(partition))
            {
                cursors.add(partition, resolved.get(partition));
            }
        }
    }

    /** Joins {@code groupId}'s share of {@code topic} with no rebalance callbacks. */
    public void subscribe(final String topic, final String groupId)
    {
        subscribe(Set.of(topic), groupId, RebalanceListener.NONE);
    }

    /**
     * Joins the consumer's group (the one in its config, or {@code groupId} when the config has none) for these
     * topics; partitions arrive through {@code listener} during later polls.
     *
     * @throws IllegalClientStateException when partitions were assigned by hand or it already subscribed
     * @throws InvalidGroupException when the config names a different group
     */
    public void subscribe(final Set<String> topicNames, final String groupId, final RebalanceListener listener)
    {
        ensureOpen();
        if (membership != null || !cursors.isEmpty())
        {
            final String current = membership != null ?
                "subscribed to group \"" + membership.groupId() + "\"" : "has assigned partitions";
            throw new IllegalClientStateException(
                "consumer already " + current + "; use a new consumer for another subscription");
        }
        if (config.groupId() != null && !config.groupId().equals(groupId))
        {
            throw new InvalidGroupException("consumer is configured for group \"" + config.groupId() +
                "\" and cannot subscribe for group \"" + groupId + "\"");
        }
        topicNames.forEach(topics::topic);
        final ConsumerConfig groupConfig = config.groupId() != null ? config : new ConsumerConfig(groupId,
            config.resetPolicy(), config.autoCommit(), config.autoCommitIntervalMillis(),
            config.sessionTimeoutMillis(), config.assignor());
        membership = new GroupMembership(coordinator, groupConfig, topicNames, listener, cursors::wakeUp);
        try
        {
            membership.sync(owner);
        }
        catch (final RuntimeException ex)
        {
            membership = null;
            throw ex;
        }
    }

    /** The partitions this consumer reads now. */
    public Set<TopicPartition> assignment()
    {
        return Set.copyOf(cursors.partitions());
    }

    /** The member id in the group, or null when not subscribed. */
    public String memberId()
    {
        return membership == null ? null : membership.memberId();
    }

    /**
     * @throws PartitionNotAssignedException when the partition is not assigned
     * @throws OffsetOutOfRangeException when the offset is below the log start or above its end
     */
    public void seek(final TopicPartition partition, final long offset)
    {
        cursor(partition).seek(offset);
    }

    public void seekToBeginning(final Collection<TopicPartition> partitions)
    {
        for (final TopicPartition partition : partitions)
        {
            final PartitionCursor cursor = cursor(partition);
            cursor.seek(cursor.log.startOffset());
        }
    }

    public void seekToEnd(final Collection<TopicPartition> partitions)
    {
        for (final TopicPartition partition : partitions)
        {
            final PartitionCursor cursor = cursor(partition);
            cursor.seek(cursor.log.endOffset());
        }
    }

    /** Moves to the first record with a timestamp at or after {@code timestampMillis}, or to the end if none. */
    public void seekToTimestamp(final TopicPartition partition, final long timestampMillis)
    {
        final PartitionCursor cursor = cursor(partition);
        cursor.seek(cursor.log.offsetForTimestamp(timestampMillis));
    }

    /**
     * The offset of the next record this consumer reads from the partition, setting it first from the committed
     * offset or the reset policy if it has none.
     */
    public long position(final TopicPartition partition)
    {
        final PartitionCursor cursor = cursor(partition);
        consumerOffsets.ensurePosition(cursor, groupId());
        return cursor.position();
    }

    /**
     * Hands up to {@code maxRecords} records, about {@code maxBytes} of them (at least one), as zero-copy views,
     * waiting up to {@code timeout} for the first one.
     *
     * @return how many records were handed over; 0 when the timeout passed first
     * @throws OffsetOutOfRangeException      when a position fell below the log start (it carries the earliest
     *                                        offset; seek before polling again)
     * @throws NoOffsetForPartitionException  when a partition has no position and the reset policy is ERROR
     */
    public int poll(final StreamRecordHandler handler, final int maxRecords, final int maxBytes,
        final Duration timeout)
    {
        ensureOpen();
        if (maxRecords <= 0 || maxBytes <= 0)
        {
            throw new InvalidRequestException("maxRecords and maxBytes must be positive, were " + maxRecords +
                " and " + maxBytes);
        }
        dispatch.target = handler;
        try
        {
            // The clock is read only once a round found nothing: a consumer that keeps finding records (a replay)
            // pays no clock read per poll.
            long deadline = 0;
            boolean waiting = false;
            while (true)
            {
                cursors.startRound();
                syncGroup();
                maybeAutoCommit();
                final int read = readOnce(maxRecords, maxBytes);
                if (read > 0)
                {
                    return read;
                }
                final long now = System.nanoTime();
                if (!waiting)
                {
                    waiting = true;
                    deadline = now + timeout.toNanos();
                }
                final long remaining = deadline - now;
                if (remaining <= 0)
                {
                    return 0;
                }
                cursors.awaitData(membership == null ? remaining : Math.min(remaining, heartbeatIntervalNanos));
            }
        }
        finally
        {
            dispatch.target = null;
        }
    }

    /** Like {@link #poll(StreamRecordHandler, int, int, Duration)} but returns copies. Allocates. */
    public List<ConsumerRecord> poll(final int maxRecords, final int maxBytes, final Duration timeout)
    {
        final List<ConsumerRecord> records = new ArrayList<>();
        poll((topic, partition, view) -> records.add(ConsumerRecord.copyOf(topic, partition, view)),
            maxRecords, maxBytes, timeout);
        return records;
    }

    /** Commits the position of every assigned partition that moved since its last commit. */
    public void commitSync()
    {
        ensureOpen();
        commitSync(consumerOffsets.movedPositions(cursors.partitions()));
    }

    /**
     * Commits the given offsets (each the next offset to read).
     *
     * @throws InvalidGroupException  when the consumer has no group id
     * @throws CommitFailedException when a partition was reassigned to another member
     */
    public void commitSync(final Map<TopicPartition, Long> offsets)
    {
        ensureOpen();
        if (groupId() == null)
        {
            throw new InvalidGroupException("consumer has no group id, so it has nowhere to commit offsets");
        }
        if (offsets.isEmpty())
        {
            return;
        }
        if (membership != null)
        {
            membership.commit(offsets);
        }
        else
        {
            coordinator.commitStandalone(config.groupId(), offsets);
        }
        consumerOffsets.markCommitted(offsets);
    }

    /**
     * The group's committed offset for the partition, or
     * {@link io.spool.api.stream.GroupReport.PartitionPosition#NO_OFFSET}.
     */
    public long committed(final TopicPartition partition)
    {
        final String group = groupId();
        if (group == null)
        {
            throw new InvalidGroupException("consumer has no group id, so it has no committed offsets");
        }
        return coordinator.committed(group, partition);
    }

    /**
     * Commits if auto-commit is on, leaves the group (handing its partitions over) and releases the readers; after
     * the engine closed it only releases the readers.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        try
        {
            if (topics.isStoreClosed())
            {
                return;
            }
            if (membership != null)
            {
                membership.leave(owner);
            }
            else if (config.autoCommit())
            {
                owner.autoCommitBeforeRevoke(cursors.partitions());
            }
        }
        finally
        {
            closed = true;
            cursors.drop(cursors.partitions());
        }
    }

    private String groupId()
    {
        return membership != null ? membership.groupId() : config.groupId();
    }

    private void syncGroup()
    {
        if (membership != null)
        {
            membership.sync(owner);
        }
    }

    private void maybeAutoCommit()
    {
        if (config.autoCommit() && clock.time() - lastAutoCommit >= config.autoCommitIntervalMillis())
        {
            owner.autoCommitBeforeRevoke(cursors.partitions());
            lastAutoCommit = clock.time();
        }
    }

    private int readOnce(final int maxRecords, final int maxBytes)
    {
        final PartitionCursor[] current = cursors.inOrder();
        if (nextStart >= current.length)
        {
            // the assignment shrank since the last round
            nextStart = 0;
        }
        int read = 0;
        long bytes = 0;
        for (int i = 0; i < current.length && read < maxRecords && bytes < maxBytes; i++)
        {
            final int index = nextStart + i;
            final PartitionCursor cursor = current[index < current.length ? index : index - current.length];
            if (membership != null && cursor.log.isClosed())
            {
                // its topic was deleted; the group revokes the partition on the next sync, so skip it quietly
                continue;
            }
            consumerOffsets.ensurePosition(cursor, groupId());
            dispatch.topic = cursor.partition.topic();
            dispatch.partition = cursor.partition.partition();
            read += cursor.poll(dispatch, maxRecords - read, (int)(maxBytes - bytes));
            bytes += cursor.polledBytes();
        }
        nextStart = nextStart + 1 < current.length ? nextStart + 1 : 0;
        return read;
    }

    private PartitionCursor cursor(final TopicPartition partition)
    {
        ensureOpen();
        final PartitionCursor cursor = cursors.get(partition);
        if (cursor == null)
        {
            throw new PartitionNotAssignedException(partition + " is not assigned to this consumer; assigned: " +
                new TreeSet<>(cursors.partitions()));
        }
        return cursor;
    }

    private void ensureOpen()
    {
        if (closed)
        {
            throw new EngineClosedException("stream consumer");
        }
        if (topics.isStoreClosed())
        {
            throw new EngineClosedException("stream engine of this consumer");
        }
    }

    /** Forwards views with their partition and counts frame bytes against the poll's budget. */
    private static final class Dispatch implements RecordHandler
    {
        StreamRecordHandler target;
        String topic;
        int partition;

        @Override
        public void onRecord(final RecordView record)
        {
            target.onRecord(topic, partition, record);
        }
    }

    /** The consumer's side of rebalances: which partitions it holds, and adding or dropping their cursors. */
    private final class Owner implements GroupMembership.Owner
    {
        @Override
        public Set<TopicPartition> ownedPartitions()
        {
            return cursors.partitions();
        }

        @Override
        public void autoCommitBeforeRevoke(final Collection<TopicPartition> partitions)
        {
            if (!config.autoCommit())
            {
                return;
            }
            try
            {
                commitSync(consumerOffsets.movedPositions(partitions));
            }
            catch (final CommitFailedException | UnknownMemberException ex)
            {
                LOGGER.warn("auto-commit skipped: " + ex.getMessage() +
                    "; the next owner re-reads from the last committed offset");
            }
        }

        @Override
        public void dropPartitions(final Collection<TopicPartition> partitions)
        {
            cursors.drop(partitions);
        }

        @Override
        public void addPartitions(final Collection<TopicPartition> partitions)
        {
            for (final TopicPartition partition : partitions)
            {
                final Topic topic = topics.topicOrNull(partition.topic());
                if (topic != null && partition.partition() < topic.partitionCount())
                {
                    consumerOffsets.ensurePositionQuietly(cursors.add(partition, topic), groupId());
                }
            }
        }
    }
}
