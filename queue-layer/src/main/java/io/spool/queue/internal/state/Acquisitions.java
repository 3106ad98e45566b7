package io.spool.queue.internal.state;

import io.spool.queue.DeliveryHandler;
import io.spool.queue.internal.table.DeadlineTimers;
import io.spool.queue.internal.table.OffsetWindow;

/**
 * Hands messages to a consumer: those queued for it by key first, then released ones, lowest offset first (a
 * released one heading an ordered group brings the run of its group's messages behind it), then new ones from the
 * read cursor, each held for the consumer until its lock deadline. New offsets come in runs, so their
 * journal entries, their lock deadline (one timer per run, see {@link DeadlineTimers}) and the consumer's count of
 * held messages are written once per run rather than once per message. Not thread-safe: owned by the subscription
 * partition's thread.
 */
final class Acquisitions
{
    /** The run's records are each on the timer wheel: a lock earlier than a queued run's cannot join the runs. */
    private static final long NO_RUN_LOCK = Long.MIN_VALUE;

    private final PartitionCore core;
    private final OffsetWindow window;
    private final GroupGate groups;
    private final ReadCursor cursor;
    private long redeliveryCount;

    Acquisitions(final PartitionCore core, final GroupGate groups, final ReadCursor cursor)
    {
        this.core = core;
        this.window = core.window;
        this.groups = groups;
        this.cursor = cursor;
    }

    /**
     * Acquires up to {@code max} messages for {@code consumerId}, locked until {@code deadline}.
     *
     * @return the number of deliveries handed to {@code handler}.
     */
    int acquire(final int max, final int consumerId, final long deadline, final DeliveryHandler handler)
    {
        final long now = core.clock.time();
        int delivered = 0;
        long offset;
        while (delivered < max && (offset = groups.nextQueued(consumerId)) != KeyStickyGroups.NONE)
        {
            if (offset < window.floor() || window.isSettled(offset))
            {
                continue;
            }
            deliverMet(offset, consumerId, deadline, now, handler);
            delivered++;
        }
        while (delivered < max && window.readyCount() > 0)
        {
            offset = window.lowestReady();
            core.clearReady(offset);
            if (!groups.takeReleased(offset, consumerId))
            {
                continue;
            }
            deliverMet(offset, consumerId, deadline, now, handler);
            delivered++;
            long member = offset;
            while (delivered < max && (member = groups.nextInRun(member)) != MessageGroups.NONE)
            {
                deliverMet(member, consumerId, deadline, now, handler);
                delivered++;
            }
        }
        return delivered + deliverNew(max - delivered, consumerId, deadline, now, handler);
    }

    /** Deliveries after the first, since this state was opened. */
    long redeliveryCount()
    {
        return redeliveryCount;
    }

    /** Delivers a message the read cursor already met (released, or waiting for its group or its time). */
    private void deliverMet(final long offset, final int consumerId, final long deadline, final long now,
        final DeliveryHandler handler)
    {
        final int deliveryNumber = window.deliveryCount(offset) + 1;
        window.deliveryCount(offset, deliveryNumber);
        core.hold(offset, consumerId, deadline);
        if (deliveryNumber == 1)
        {
            core.firstDeliveries.delivered(offset, now);
            core.stateLog.firstDelivery(offset, now);
        }
        else
        {
            redeliveryCount++;
            core.stateLog.redelivery(offset, deliveryNumber);
        }
        handler.onDelivery(offset, deliveryNumber);
    }

    /** Delivers up to {@code max} messages the read cursor meets now, first deliveries all. */
    private int deliverNew(final int max, final int consumerId, final long deadline, final long now,
        final DeliveryHandler handler)
    {
        cursor.passRemoved();
        final long windowEnd = window.floor() + OffsetWindow.MAX_CAPACITY;
        final boolean locksInRuns = core.timers.takesRunUntil(deadline);
        int delivered = 0;
        int passed = 0;
        long runFrom = 0;
        int runLength = 0;
        while (delivered < max && passed < SubscriptionPartitionState.MAX_PASSED_PER_ACQUIRE &&
            cursor.canAdvance(windowEnd))
        {
            long first = core.cursor;
            int taken = cursor.takePlain(max - delivered, windowEnd);
            if (taken == 0)
            {
                first = cursor.next(now, consumerId);
                if (first == ReadCursor.PASSED)
                {
                    passed++;
                    continue;
                }
                taken = 1;
            }
            if (first != runFrom + runLength)
            {
                endRun(runFrom, runLength, consumerId, now, locksInRuns ? deadline : NO_RUN_LOCK);
                runFrom = first;
                runLength = 0;
            }
            runLength += taken;
            core.firstDeliveries.delivered(first, taken, now);
            for (long offset = first, end = first + taken; offset < end; offset++)
            {
                window.deliveryCount(offset, 1);
                if (!locksInRuns)
                {
                    core.holdRecord(offset, consumerId, deadline);
                }
            }
            handler.onFirstDeliveries(first, taken, now);
            delivered += taken;
        }
        endRun(runFrom, runLength, consumerId, now, locksInRuns ? deadline : NO_RUN_LOCK);
        core.countHolds(consumerId, delivered);
        return delivered;
    }

    /**
     * A run of first deliveries is journaled and, unless its lock is {@link #NO_RUN_LOCK} (its records were held one
     * by one on the timer wheel), held for the consumer as one run.
     */
    private void endRun(final long from, final int count, final int consumerId, final long now, final long runLock)
    {
        if (count > 0)
        {
            core.stateLog.firstDeliveries(from, count, now);
            if (runLock != NO_RUN_LOCK)
            {
                core.timers.holdRun(from, count, consumerId, runLock);
            }
        }
    }
}
