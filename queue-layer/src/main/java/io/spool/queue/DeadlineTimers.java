package io.spool.queue;

import org.agrona.DeadlineTimerWheel;
import org.agrona.collections.Long2LongHashMap;

import java.util.concurrent.TimeUnit;

/**
 * Lock deadlines and delay due times of held records, on an Agrona {@link DeadlineTimerWheel}. Expiry visits only
 * the records whose deadline has passed; nothing scans the in-flight set. Not thread-safe: owned by the
 * subscription partition's thread.
 * <p>
 * Design note: the wheel holds one timer per distinct deadline, not per record. Records sharing a deadline (a whole
 * acquired batch) form a doubly linked list threaded through {@link InFlightTable}'s previous/next arrays, so a
 * burst of acquisitions costs one wheel slot, and an ack unlinks its record in O(1). A list that empties cancels its
 * timer, so acks ahead of the deadline leave nothing behind in the wheel.
 */
final class DeadlineTimers implements DeadlineTimerWheel.TimerHandler
{
    /** Told about each record whose deadline passed; the record is already unlinked. */
    @FunctionalInterface
    interface ExpiryHandler
    {
        void onDeadline(int record);
    }

    private static final long TICK_MILLIS = 8;
    private static final int TICKS_PER_WHEEL = 256;
    private static final int INITIAL_TICK_ALLOCATION = 4;
    private static final long NO_DEADLINE = Long.MIN_VALUE;
    private static final long NO_TIMER = -1;

    private final InFlightTable records;
    private final DeadlineTimerWheel wheel;
    private final Long2LongHashMap headByDeadline = new Long2LongHashMap(InFlightTable.NIL);
    private final Long2LongHashMap deadlineByTimer = new Long2LongHashMap(NO_DEADLINE);
    private final Long2LongHashMap timerByDeadline = new Long2LongHashMap(NO_TIMER);
    private int tickAllocation = INITIAL_TICK_ALLOCATION;
    private ExpiryHandler expiryHandler;
    private int expired;

    DeadlineTimers(final InFlightTable records, final long startTimeMillis)
    {
        this.records = records;
        this.wheel = new DeadlineTimerWheel(TimeUnit.MILLISECONDS, startTimeMillis, TICK_MILLIS, TICKS_PER_WHEEL,
            INITIAL_TICK_ALLOCATION);
    }

    void schedule(final int record, final long deadline)
    {
        records.deadline(record, deadline);
        records.previous(record, InFlightTable.NIL);
        final int head = (int)headByDeadline.get(deadline);
        if (head == InFlightTable.NIL)
        {
            records.next(record, InFlightTable.NIL);
            final long timerId = wheel.scheduleTimer(deadline);
            deadlineByTimer.put(timerId, deadline);
            timerByDeadline.put(deadline, timerId);
            // The wheel doubles every spoke's allocation when one spoke overflows; tracked to report memory.
            while ((int)timerId >= tickAllocation)
            {
                tickAllocation <<= 1;
            }
        }
        else
        {
            records.next(record, head);
            records.previous(head, record);
        }
        headByDeadline.put(deadline, record);
    }

    void unlink(final int record)
    {
        final int previous = records.previous(record);
        final int next = records.next(record);
        if (previous == InFlightTable.NIL)
        {
            final long deadline = records.deadline(record);
            if (next == InFlightTable.NIL)
            {
                headByDeadline.remove(deadline);
                final long timerId = timerByDeadline.remove(deadline);
                deadlineByTimer.remove(timerId);
                wheel.cancelTimer(timerId);
            }
            else
            {
                headByDeadline.put(deadline, next);
            }
        }
        else
        {
            records.next(previous, next);
        }
        if (next != InFlightTable.NIL)
        {
            records.previous(next, previous);
        }
        records.previous(record, InFlightTable.NIL);
        records.next(record, InFlightTable.NIL);
    }

    /**
     * Hands every record whose deadline is at or before {@code now} to the handler.
     *
     * @return the number of records expired.
     */
    int expireDue(final long now, final ExpiryHandler handler)
    {
        expiryHandler = handler;
        expired = 0;
        // The wheel advances one tick per poll. After a clock jump longer than a turn, one full turn has visited
        // every spoke with this `now`, so everything due has fired and the remaining ticks can be skipped.
        for (int polls = 0; polls <= TICKS_PER_WHEEL; polls++)
        {
            if (wheel.timerCount() == 0)
            {
                wheel.currentTickTime(now);
                return expired;
            }
            final long tickTime = wheel.currentTickTime();
            wheel.poll(now, this, Integer.MAX_VALUE);
            if (wheel.currentTickTime() == tickTime)
            {
                return expired;
            }
        }
        wheel.currentTickTime(now);
        return expired;
    }

    @Override
    public boolean onTimerExpiry(final TimeUnit timeUnit, final long now, final long timerId)
    {
        final long deadline = deadlineByTimer.remove(timerId);
        timerByDeadline.remove(deadline);
        int record = (int)headByDeadline.remove(deadline);
        while (record != InFlightTable.NIL)
        {
            final int next = records.next(record);
            records.previous(record, InFlightTable.NIL);
            records.next(record, InFlightTable.NIL);
            expired++;
            expiryHandler.onDeadline(record);
            record = next;
        }
        return true;
    }

    /** Distinct deadlines with a timer in the wheel. */
    long timerCount()
    {
        return wheel.timerCount();
    }

    long footprintBytes()
    {
        return (long)TICKS_PER_WHEEL * tickAllocation * Long.BYTES +
            ((long)headByDeadline.capacity() + deadlineByTimer.capacity() + timerByDeadline.capacity()) * 2 *
            Long.BYTES;
    }
}
