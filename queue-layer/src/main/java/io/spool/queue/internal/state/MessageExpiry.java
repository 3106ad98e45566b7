package io.spool.queue.internal.state;

import io.spool.queue.internal.table.DelayedAhead;
import io.spool.queue.internal.table.ExpiryQueue;
import io.spool.queue.internal.table.OffsetWindow;
import io.spool.queue.internal.table.PlainMarks;

import org.agrona.concurrent.EpochClock;

import java.util.function.LongPredicate;

/**
 * Finds when each message of a subscription partition expires and says when it is due: it reads messages ahead of
 * the read cursor (at most {@link #READ_AHEAD} past the ack floor, each once), queues those with a time to live by
 * expiry, and hands due ones to the state, which knows where the message waits. A message it finds plain is marked
 * so ({@link PlainMarks}), and the cursor delivers it without reading its record a second time, unless the cursor
 * reads every message anyway (for the bytes an overflow limit counts). A message it finds past the cursor waiting
 * for its delivery time it hands to {@link DelayedAhead}, so that it counts as delayed before the cursor meets it.
 * Not thread-safe: owned by the subscription
 * partition's thread.
 */
public final class MessageExpiry
{
    /** How far past the ack floor messages are read ahead of delivery to find their expiry. */
    static final long READ_AHEAD = 1 << 20;

    private final ExpiryQueue queue = new ExpiryQueue();
    private final PlainMarks plain = new PlainMarks();
    private final MessageTraits traits = new MessageTraits();
    private final EpochClock clock;
    private final DelayedAhead delayedAhead;
    private MessageInspector inspector = MessageInspector.PLAIN;
    /** Every offset below it was read for its expiry (or is settled). */
    private long scanned;
    /** Past the read cursor, offsets below it may already have expired. */
    private long aheadEnd;
    private long expiredAheadCount;
    /** True once any message with an expiry was met: returns and due delays must then check expiry. */
    private boolean inUse;
    /** Whether plain messages are marked for the cursor to take without reading them. */
    private final boolean marksPlain;

    MessageExpiry(final long startOffset, final boolean subscriptionTtl, final boolean marksPlain,
        final EpochClock clock, final DelayedAhead delayedAhead)
    {
        this.delayedAhead = delayedAhead;
        this.marksPlain = marksPlain;
        this.scanned = startOffset;
        this.inUse = subscriptionTtl;
        this.clock = clock;
    }

    void inspector(final MessageInspector inspector)
    {
        this.inspector = inspector;
    }

    /**
     * Whether the read cursor may take a message the read-ahead marked plain as it is, without reading it.
     */
    boolean isKnownPlain(final long offset)
    {
        return marksPlain && offset < scanned && plain.isPlain(offset);
    }

    /**
     * How many messages from {@code from} on, before {@code end}, the cursor may take in a row as known plain. Where
     * the cursor has caught up with the read-ahead, the run is read as the read-ahead reads it, which costs nothing
     * for records the log knows to be header-free: a consumer that takes more per pass than the read-ahead reads
     * then does not make the cursor read each message on its own.
     */
    int knownPlainRun(final long from, final long end)
    {
        if (!marksPlain || from >= end)
        {
            return 0;
        }
        if (from >= scanned)
        {
            final int run = inspector.plainRun(from, (int)(end - from), traits);
            scanned = from + run;
            return run;
        }
        return plain.plainRunLength(from, Math.min(end, scanned));
    }

    /** The read cursor meets a message whose traits it just read. */
    void metAtCursor(final long offset, final MessageTraits met)
    {
        if (offset >= scanned)
        {
            track(offset, met);
            scanned = offset + 1;
        }
    }

    /**
     * Reads up to {@code budget} messages ahead of the read cursor.
     *
     * @return the number of messages read.
     */
    int readAhead(final int budget, final OffsetWindow window, final long cursor, final long logEnd)
    {
        final long limit = Math.min(logEnd, window.floor() + READ_AHEAD);
        int read = 0;
        while (read < budget && scanned < limit)
        {
            if (marksPlain && scanned >= cursor)
            {
                // A plain message needs no expiry and, at or past the cursor, only its mark: runs of them are
                // marked together, and each message of another kind is read on its own below.
                final int run = inspector.plainRun(scanned, (int)Math.min(budget - read, limit - scanned), traits);
                if (run > 0)
                {
                    plain.markPlain(scanned, run, cursor);
                    scanned += run;
                    read += run;
                    continue;
                }
            }
            final long offset = scanned++;
            if (offset < window.floor() || offset < cursor && window.isSettled(offset))
            {
                continue;
            }
            inspector.inspect(offset, traits);
            track(offset, traits);
            if (offset >= cursor)
            {
                if (marksPlain)
                {
                    plain.mark(offset, traits.isPlain(), cursor);
                }
                if (traits.routed && traits.deliverAt > clock.time())
                {
                    delayedAhead.found(offset, traits.deliverAt, traits.size);
                }
            }
            read++;
        }
        return read;
    }

    /**
     * Hands each message whose expiry is at or before {@code now} to {@code expire}, which answers whether it
     * expired (an acked or held message does not).
     */
    int expireDue(final long now, final LongPredicate expire)
    {
        int expired = 0;
        while (!queue.isEmpty() && queue.nextExpiry() <= now)
        {
            if (expire.test(queue.removeFirst()))
            {
                expired++;
            }
        }
        return expired;
    }

    /** Reads the message again only if expiry is in use at all: returns and due delays stay cheap otherwise. */
    boolean hasExpired(final long offset)
    {
        if (!inUse)
        {
            return false;
        }
        inspector.inspect(offset, traits);
        return traits.expireAt <= clock.time();
    }

    /**
     * Restoring a message that was delivered before: reads it whatever the settings, since nothing has been read
     * ahead yet after a restart; a message with a time to live turns the checks of later returns on.
     */
    boolean hasExpiredOnRestore(final long offset)
    {
        inspector.inspect(offset, traits);
        if (traits.expireAt != MessageTraits.NEVER)
        {
            inUse = true;
        }
        return traits.expireAt <= clock.time();
    }

    /** A message the cursor has not met expired: the cursor will skip it. */
    void expiredAhead(final long offset)
    {
        aheadEnd = Math.max(aheadEnd, offset + 1);
        expiredAheadCount++;
    }

    /** Whether the cursor is to skip {@code offset} because it expired before the cursor got there. */
    boolean isExpiredAhead(final long offset, final OffsetWindow window)
    {
        return offset < aheadEnd && window.isSettled(offset);
    }

    /** The cursor reaches {@code offset}: whether to skip it as expired ahead (it then stops counting as such). */
    boolean passExpiredAhead(final long offset, final OffsetWindow window)
    {
        if (isExpiredAhead(offset, window))
        {
            expiredAheadCount--;
            return true;
        }
        return false;
    }

    /**
     * Retention removed the messages from {@code from} (the read cursor) up to {@code end} before the cursor met
     * them: those among them that expired ahead are passed over, and none of them is to be read ahead.
     */
    void passRemoved(final long from, final long end, final OffsetWindow window)
    {
        for (long offset = from, last = Math.min(end, aheadEnd); offset < last; offset++)
        {
            if (window.isSettled(offset))
            {
                expiredAheadCount--;
            }
        }
        scanned = Math.max(scanned, end);
    }

    /** Messages past the read cursor that expired before it reached them: dead, though not yet passed over. */
    long expiredAheadCount()
    {
        return expiredAheadCount;
    }

    /** Marks a message that expired ahead of the read cursor while restoring. */
    void restoreExpiredAhead(final long offset)
    {
        aheadEnd = Math.max(aheadEnd, offset + 1);
    }

    /** After a restore, counts the messages between the read cursor and the read-ahead's end that expired. */
    void recountExpiredAhead(final long cursor, final OffsetWindow window)
    {
        expiredAheadCount = 0;
        for (long offset = Math.max(cursor, window.floor()); offset < aheadEnd; offset++)
        {
            if (window.isSettled(offset))
            {
                expiredAheadCount++;
            }
        }
    }

    long aheadEnd()
    {
        return aheadEnd;
    }

    long footprintBytes()
    {
        return queue.footprintBytes() + plain.footprintBytes();
    }

    private void track(final long offset, final MessageTraits met)
    {
        if (met.routed && met.expireAt != MessageTraits.NEVER)
        {
            queue.add(met.expireAt, offset);
            inUse = true;
        }
    }
}
