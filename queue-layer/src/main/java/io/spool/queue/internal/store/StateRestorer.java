package io.spool.queue.internal.store;

import io.spool.queue.DeadReason;
import io.spool.queue.internal.state.StateLog;
import io.spool.queue.internal.state.SubscriptionPartitionState;
import io.spool.queue.internal.table.OffsetWindow;

import org.agrona.collections.Long2LongHashMap;

/**
 * Rebuilds a state from its files: applies snapshot sections and replayed journal entries, collecting delays apart
 * because whether a delay still stands is known only once the whole journal is read, then settles what nobody
 * holds any more. Not thread-safe: used by one restore.
 */
final class StateRestorer implements StateLog
{
    private final SubscriptionPartitionState state;
    private final Long2LongHashMap delays;

    StateRestorer(final SubscriptionPartitionState state, final Long2LongHashMap delays)
    {
        this.state = state;
        this.delays = delays;
    }

    /** A delivery from the journal or a snapshot: its count only, since nobody holds it after a restart. */
    static void restoreDelivery(final SubscriptionPartitionState state, final long offset, final int deliveryNumber)
    {
        final OffsetWindow window = state.window();
        if (offset >= window.floor())
        {
            window.ensureCovers(offset);
            window.deliveryCount(offset, deliveryNumber);
            state.restore().cursor(offset + 1);
        }
    }

    static void restoreSettled(final SubscriptionPartitionState state, final long offset, final boolean isDead)
    {
        final OffsetWindow window = state.window();
        if (offset >= window.floor())
        {
            window.ensureCovers(offset);
            window.settle(offset, isDead);
            state.restore().cursor(offset + 1);
        }
    }

    /**
     * Ends a restore: every unsettled delivered offset becomes delayed, available (redelivered), or dead if its last
     * delivery already reached the limit; the dead are logged and reported as they would have been had the
     * process not stopped.
     */
    void complete()
    {
        complete(new Long2LongHashMap(Long.MIN_VALUE), 0);
    }

    /**
     * Ends a restore as {@link #complete()} does, but for the offsets of {@code locks}: those stay held by
     * {@code holder} until their lock deadline.
     */
    void complete(final Long2LongHashMap locks, final int holder)
    {
        final OffsetWindow window = state.window();
        final long cursor = state.readCursor();
        state.logEnd(Math.max(state.logEnd(), cursor));
        for (long offset = window.floor(); offset < cursor; offset++)
        {
            if (offset < window.floor() || window.isSettled(offset))
            {
                continue;
            }
            final long until = delays.get(offset);
            if (until != delays.missingValue())
            {
                state.restore().delayed(offset, until);
            }
            else if (locks.containsKey(offset))
            {
                state.restore().acquired(offset, holder, locks.get(offset));
            }
            else
            {
                state.restore().held(offset);
            }
        }
        state.firstDeliveries().trimBelow(window.advanceFloor(cursor));
    }

    @Override
    public void firstDelivery(final long offset, final long timeMillis)
    {
        restoreDelivery(state, offset, 1);
        if (offset >= state.ackFloor())
        {
            state.firstDeliveries().delivered(offset, timeMillis);
        }
        delays.remove(offset);
    }

    @Override
    public void redelivery(final long offset, final int deliveryNumber)
    {
        restoreDelivery(state, offset, deliveryNumber);
        delays.remove(offset);
    }

    @Override
    public void acked(final long offset)
    {
        restoreSettled(state, offset, false);
        state.firstDeliveries().settled(offset);
        delays.remove(offset);
    }

    /**
     * A range that starts where every lower offset is settled (as the range of messages retention removed before the
     * read cursor met them does) moves the floor past it in one step, however long it is, so the window never has
     * to span it; any other range is applied offset by offset.
     */
    @Override
    public void ackedRange(final long from, final int count)
    {
        final OffsetWindow window = state.window();
        state.firstDeliveries().trimBelow(window.advanceFloor(from));
        if (from != window.floor())
        {
            StateLog.super.ackedRange(from, count);
            return;
        }
        final long end = from + count;
        window.settleRange(from, end);
        state.restore().cursor(end);
        state.firstDeliveries().trimBelow(end);
        if (!delays.isEmpty())
        {
            delays.keySet().removeIf(offset -> offset >= from && offset < end);
        }
    }

    /** A message that expired before the read cursor reached it: settled dead, the cursor left where it is. */
    static void restoreExpiredAhead(final SubscriptionPartitionState state, final long offset)
    {
        final OffsetWindow window = state.window();
        if (offset >= window.floor())
        {
            window.ensureCovers(offset);
            window.settle(offset, true);
            state.restore().expiredAhead(offset);
        }
    }

    @Override
    public void dead(final long offset, final DeadReason reason)
    {
        if (reason == DeadReason.EXPIRED && offset >= state.readCursor())
        {
            restoreExpiredAhead(state, offset);
            return;
        }
        restoreSettled(state, offset, true);
        state.firstDeliveries().settled(offset);
        delays.remove(offset);
    }

    @Override
    public void deadLetterDue(final long offset, final DeadReason reason, final int deliveries, final long timeMillis)
    {
        state.dueDeadLetters().due(offset, reason, deliveries, timeMillis);
    }

    @Override
    public void deadLetterStored(final long offset)
    {
        state.dueDeadLetters().stored(offset);
    }

    @Override
    public void delayed(final long offset, final long untilMillis)
    {
        delays.put(offset, untilMillis);
    }
}
