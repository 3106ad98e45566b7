package io.spool.queue.internal.state;

import io.spool.queue.internal.table.OffsetWindow;

import org.agrona.collections.Long2LongHashMap;

/**
 * The bytes of one subscription partition's ready messages, counted exactly for the overflow limit: the frame
 * bytes (each record as stored in the log: header, key, headers, value and padding) of every message routed to the
 * subscription that the read cursor has not met and that has neither expired nor waits for its delivery time, plus
 * those of released messages waiting to be delivered again. Messages in a consumer's hands, delayed, waiting behind
 * their group, acked or dead do not
 * count. Not thread-safe: owned by the subscription partition's thread.
 * <p>
 * Design note: a message's bytes are read once, as the log end passes it, by a reader of its own; the cursor takes
 * them off when it meets the message. Counting thus costs a read of every record, so only subscriptions with an
 * overflow limit count. A released message's bytes are kept by offset until it is taken again, so what is added is
 * what is taken off. When retention removed a record before the cursor met it (its bytes can no longer be read),
 * the unmet bytes are counted afresh from the cursor.
 */
public final class ReadyBytes
{
    private static final long NOT_RELEASED = -1;

    private final PartitionCore core;
    private final MessageTraits traits = new MessageTraits();
    private final Long2LongHashMap releasedSizes = new Long2LongHashMap(NOT_RELEASED);
    private MessageInspector arrivals = MessageInspector.PLAIN;
    private long countedEnd = -1;
    private long unmetBytes;
    private long releasedBytes;
    private boolean recount;

    ReadyBytes(final PartitionCore core)
    {
        this.core = core;
    }

    /** Reads the records as the log end passes them, with a reader of its own; counting starts afresh. */
    void arrivals(final MessageInspector inspector)
    {
        arrivals = inspector;
        recount = true;
    }

    /** The log end moved: counts the bytes of the messages that arrived. */
    void logEndMoved()
    {
        if (countedEnd < core.cursor)
        {
            recount = true;
            return;
        }
        countArrivals();
    }

    /** Retention removed records the cursor had not met: the unmet bytes are counted afresh from the cursor. */
    void removedUnmet()
    {
        recount = true;
    }

    /** The cursor met a message whose traits it read ({@code met}); its bytes stop counting as unmet. */
    void metAtCursor(final long offset, final MessageTraits met)
    {
        if (met.routed)
        {
            taken(offset, met.size);
        }
    }

    /** A message the cursor has not met expired; its bytes stop counting. */
    void expiredAhead(final long offset)
    {
        core.inspector.inspect(offset, traits);
        if (traits.routed)
        {
            taken(offset, traits.size);
        }
    }

    /** A message was released and waits for delivery again. */
    void released(final long offset)
    {
        core.inspector.inspect(offset, traits);
        releasedSizes.put(offset, traits.size);
        releasedBytes += traits.size;
    }

    /** A released message was taken again (delivered, dropped, expired or put behind its group). */
    void taken(final long offset)
    {
        final long size = releasedSizes.remove(offset);
        if (size != NOT_RELEASED)
        {
            releasedBytes -= size;
        }
    }

    /** After a restore, counts the released messages the window holds as ready. */
    void recountReleased()
    {
        releasedSizes.clear();
        releasedBytes = 0;
        final OffsetWindow window = core.window;
        for (long offset = window.floor(); offset < core.cursor; offset++)
        {
            if (window.isReady(offset))
            {
                released(offset);
            }
        }
    }

    long total()
    {
        if (recount)
        {
            unmetBytes = 0;
            countedEnd = core.cursor;
            recount = false;
            countArrivals();
        }
        return unmetBytes - core.delayedAhead.bytes() + releasedBytes;
    }

    long footprintBytes()
    {
        return (long)releasedSizes.capacity() * 2 * Long.BYTES;
    }

    private void taken(final long offset, final int size)
    {
        if (offset < countedEnd)
        {
            unmetBytes -= size;
            // A real record is never empty: the size is gone with a record retention removed.
            recount |= size == 0;
        }
    }

    private void countArrivals()
    {
        for (long offset = countedEnd; offset < core.logEnd; offset++)
        {
            if (!core.expiry.isExpiredAhead(offset, core.window))
            {
                arrivals.inspect(offset, traits);
                unmetBytes += traits.routed ? traits.size : 0;
            }
        }
        countedEnd = Math.max(countedEnd, core.logEnd);
    }
}
