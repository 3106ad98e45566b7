package io.spool.stream.internal.group;

import io.spool.api.log.OffsetOutOfRangeException;
import io.spool.api.stream.NoOffsetForPartitionException;
import io.spool.api.stream.TopicPartition;
import io.spool.stream.GroupCoordinator;
import io.spool.stream.OffsetResetPolicy;
import io.spool.stream.StreamConsumer;
import io.spool.stream.internal.consumer.PartitionCursor;
import io.spool.stream.internal.consumer.PartitionCursors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * Where a consumer's positions meet its group's committed offsets: which positions moved since they were
 * committed, marking them committed, and giving a partition without a position its start from the committed
 * offset or the reset policy. The group id comes with each call because subscribing changes it.
 * Not thread-safe: owned by one consumer.
 */
public final class ConsumerOffsets
{
    // under the consumer's name, so logging configured for StreamConsumer still covers what is logged here
    private static final Logger LOGGER = LoggerFactory.getLogger(StreamConsumer.class);

    private final GroupCoordinator coordinator;
    private final OffsetResetPolicy resetPolicy;
    private final PartitionCursors cursors;

    public ConsumerOffsets(final GroupCoordinator coordinator, final OffsetResetPolicy resetPolicy,
        final PartitionCursors cursors)
    {
        this.coordinator = coordinator;
        this.resetPolicy = resetPolicy;
        this.cursors = cursors;
    }

    /** The positions of these assigned partitions that moved since their last commit. */
    public Map<TopicPartition, Long> movedPositions(final Collection<TopicPartition> partitions)
    {
        final Map<TopicPartition, Long> offsets = new HashMap<>();
        for (final TopicPartition partition : partitions)
        {
            final long position = cursors.get(partition).positionToCommit();
            if (position != PartitionCursor.UNSET)
            {
                offsets.put(partition, position);
            }
        }
        return offsets;
    }

    /** Records the offsets as committed for the partitions still assigned. */
    public void markCommitted(final Map<TopicPartition, Long> offsets)
    {
        offsets.forEach((partition, offset) ->
        {
            final PartitionCursor cursor = cursors.get(partition);
            if (cursor != null)
            {
                cursor.committed(offset);
            }
        });
    }

    /**
     * @param group the consumer's group id, or null when it has none
     * @throws NoOffsetForPartitionException when there is no committed offset and the reset policy is ERROR
     */
    public void ensurePosition(final PartitionCursor cursor, final String group)
    {
        if (cursor.hasPosition())
        {
            return;
        }
        final long committed = group == null ? CommittedOffsetStore.NO_OFFSET :
            coordinator.committed(group, cursor.partition);
        if (committed != CommittedOffsetStore.NO_OFFSET)
        {
            cursor.seek(committed);
            cursor.committed(committed);
            return;
        }
        switch (resetPolicy)
        {
            case EARLIEST -> cursor.seek(cursor.log.startOffset());
            case LATEST -> cursor.seek(cursor.log.endOffset());
            case ERROR -> throw new NoOffsetForPartitionException("no position and no committed offset for " +
                cursor.partition + (group == null ? "" : " in group \"" + group + "\"") +
                ", and the reset policy is ERROR; seek first");
        }
    }

    /**
     * Sets the position before the assigned callback when it can; a missing offset under the ERROR policy or
     * a committed offset retention already removed stays unset, so the next poll reports it and the callback
     * still runs.
     */
    public void ensurePositionQuietly(final PartitionCursor cursor, final String group)
    {
        if (resetPolicy != OffsetResetPolicy.ERROR ||
            coordinator.committed(group, cursor.partition) != CommittedOffsetStore.NO_OFFSET)
        {
            try
            {
                ensurePosition(cursor, group);
            }
            catch (final OffsetOutOfRangeException ex)
            {
                LOGGER.debug("position of " + cursor.partition +
                    " left unset: " + ex.getMessage());
            }
        }
    }
}
