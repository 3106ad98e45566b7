package io.spool.stream.internal.consumer;

import io.spool.api.stream.TopicPartition;
import io.spool.stream.Topic;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The cursors of a consumer's assigned partitions, kept both by partition and as an array the poll loop walks
 * without allocating, and the wakeup registered on each of their logs so one park covers them all.
 * Not thread-safe: owned by one consumer, except {@link #wakeUp}.
 */
public final class PartitionCursors
{
    private static final PartitionCursor[] NONE = new PartitionCursor[0];

    private final Map<TopicPartition, PartitionCursor> byPartition = new LinkedHashMap<>();
    private final ConsumerWakeup wakeup = new ConsumerWakeup();
    private PartitionCursor[] inOrder = NONE;

    public PartitionCursor get(final TopicPartition partition)
    {
        return byPartition.get(partition);
    }

    public boolean contains(final TopicPartition partition)
    {
        return byPartition.containsKey(partition);
    }

    public boolean isEmpty()
    {
        return byPartition.isEmpty();
    }

    /** A live view; copy it before changing the set. */
    public Set<TopicPartition> partitions()
    {
        return byPartition.keySet();
    }

    /** The cursors as an array that is replaced, never changed, when the assignment changes. */
    public PartitionCursor[] inOrder()
    {
        return inOrder;
    }

    public PartitionCursor add(final TopicPartition partition, final Topic topic)
    {
        final PartitionCursor cursor = new PartitionCursor(partition, topic.partition(partition.partition()));
        cursor.log.addCommitListener(wakeup);
        byPartition.put(partition, cursor);
        inOrder = byPartition.values().toArray(NONE);
        return cursor;
    }

    public void drop(final Collection<TopicPartition> partitions)
    {
        for (final TopicPartition partition : List.copyOf(partitions))
        {
            final PartitionCursor cursor = byPartition.remove(partition);
            if (cursor != null)
            {
                cursor.log.removeCommitListener(wakeup);
                cursor.close();
            }
        }
        inOrder = byPartition.values().toArray(NONE);
    }

    /** Ends the current or next {@link #awaitData} early; safe from any thread. */
    public void wakeUp()
    {
        wakeup.signal();
    }

    /** Starts a poll round: wakeups from before it are forgotten, since the round looks at everything anyway. */
    public void startRound()
    {
        wakeup.clear();
    }

    /**
     * Parks until an assigned partition commits new records, {@link #wakeUp} is called (both counted since
     * {@link #startRound}) or {@code nanos} pass.
     */
    public void awaitData(final long nanos)
    {
        for (final PartitionCursor cursor : inOrder)
        {
            if (cursor.hasDataAvailable())
            {
                return;
            }
        }
        wakeup.await(nanos);
    }
}
