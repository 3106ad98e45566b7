package io.spool.queue.internal.state;

import io.spool.queue.DeadReason;
import io.spool.queue.internal.table.OffsetWindow;

/**
 * The read cursor of one subscription partition: it meets each message of the log once, in offset order, and
 * decides what the message becomes: routed elsewhere (done here), expired, waiting behind its group, waiting for
 * its delivery time, waiting for its key's owner, or delivered now. Not thread-safe: owned by the subscription
 * partition's thread.
 */
final class ReadCursor
{
    /** {@link #next} met a message that is not to be delivered now. */
    static final long PASSED = -1;

    private final PartitionCore core;
    private final DeadLettering dead;
    private final Delays delays;
    private final GroupGate groups;

    ReadCursor(final PartitionCore core, final DeadLettering dead, final Delays delays, final GroupGate groups)
    {
        this.core = core;
        this.dead = dead;
        this.delays = delays;
        this.groups = groups;
    }

    /**
     * Whether the cursor may meet another message: the log has one below {@code windowEnd}, and neither the groups
     * nor the delays hold as many messages as a partition keeps waiting.
     */
    boolean canAdvance(final long windowEnd)
    {
        return core.cursor < core.logEnd && core.cursor < windowEnd &&
            groups.waitingCount() < MessageGroups.MAX_WAITING &&
            delays.count() < SubscriptionPartitionState.MAX_DELAYED;
    }

    /**
     * Settles in one step, as acked, the messages retention removed before the cursor met them, from the cursor up
     * to the log start (or the window's end): journaled as one range, not counted as acks, those found delayed ahead
     * delayed no more, those expired ahead passed over. Without it each removed offset would be delivered, found
     * missing and acked one by one, each using a slot of a receive.
     *
     * @return how many offsets the cursor moved past.
     */
    long passRemoved()
    {
        final long from = core.cursor;
        final long end = Math.min(Math.min(core.logStart, core.logEnd), core.window.floor() + OffsetWindow.MAX_CAPACITY);
        if (from >= end)
        {
            return 0;
        }
        core.expiry.passRemoved(from, end, core.window);
        core.delayedAhead.releaseBelow(end);
        core.window.settleRange(from, end);
        core.cursor = end;
        core.stateLog.ackedRange(from, (int)(end - from));
        if (core.readyBytes != null)
        {
            core.readyBytes.removedUnmet();
        }
        return end - from;
    }

    /**
     * Meets the next message.
     *
     * @return its offset if it is to be delivered now to {@code consumerId}, else {@link #PASSED}.
     */
    long next(final long now, final int consumerId)
    {
        final long offset = core.cursor++;
        if (isExpiredAhead(offset))
        {
            return PASSED;
        }
        core.inspectAtCursor(offset);
        return admit(offset, now) && groups.takeNew(offset, core.traits.group, consumerId) ? offset : PASSED;
    }

    /**
     * Meets, in one step, up to {@code max} messages from the cursor on that the read-ahead found plain: each is to
     * be delivered now, as {@link #next} would decide one by one (routed here, in no group, due, never expiring, so
     * never expired ahead either).
     *
     * @return how many the cursor moved past; 0 if the next message is not known plain.
     */
    int takePlain(final int max, final long windowEnd)
    {
        final long from = core.cursor;
        final long end = Math.min(Math.min(core.logEnd, windowEnd), from + max);
        final long offset = from + core.expiry.knownPlainRun(from, end);
        if (offset > from)
        {
            core.window.ensureCovers(offset - 1);
            core.cursor = offset;
        }
        return (int)(offset - from);
    }

    /**
     * Meets up to {@code budget} messages without delivering them: each becomes ready (a message an acquire hands out
     * before any the cursor has not met, as it is older), or waits behind its group or for its delivery time, or is
     * done here. With ordered groups this runs as the log end moves, so that a message behind a busy group is never
     * counted as ready, nor its bytes, nor dropped as the oldest ready one, for want of having been read.
     *
     * @return the number of messages met.
     */
    int meetAhead(final int budget, final long windowEnd)
    {
        passRemoved();
        int met = 0;
        while (met < budget && canAdvance(windowEnd))
        {
            final long offset = core.cursor++;
            met++;
            if (isExpiredAhead(offset))
            {
                continue;
            }
            core.inspectAtCursor(offset);
            if (admit(offset, core.clock.time()))
            {
                core.markReady(offset);
            }
        }
        return met;
    }

    /**
     * Dead-letters the next message the cursor would meet that is ready (reason {@code maxlen}), passing over those
     * that expired ahead or were routed elsewhere, and putting those that wait (for their delivery time, or behind
     * their group) where they wait, as {@link #meetAhead} does: only a message that could be delivered is dropped.
     *
     * @return false if the cursor reached the log end first.
     */
    boolean dropNext()
    {
        passRemoved();
        final long windowEnd = core.window.floor() + OffsetWindow.MAX_CAPACITY;
        while (core.cursor < core.logEnd && core.cursor < windowEnd)
        {
            final long offset = core.cursor++;
            if (isExpiredAhead(offset))
            {
                continue;
            }
            core.inspectAtCursor(offset);
            if (admit(offset, core.clock.time()))
            {
                dead.die(offset, DeadReason.MAXLEN, 0);
                return true;
            }
        }
        return false;
    }

    /** A message that expired before the cursor reached it is passed over; it was dead-lettered then. */
    private boolean isExpiredAhead(final long offset)
    {
        core.window.ensureCovers(offset);
        if (core.expiry.passExpiredAhead(offset, core.window))
        {
            core.advanceFloorFrom(offset);
            return true;
        }
        return false;
    }

    /**
     * Decides what a message met for the first time becomes; the core's traits hold its traits.
     *
     * @return true if it is to be delivered now; false if it was routed elsewhere, expired, waits behind its group,
     * or waits for its delivery time.
     */
    private boolean admit(final long offset, final long now)
    {
        final MessageTraits traits = core.traits;
        if (!traits.routed)
        {
            // Routed by an exchange to other subscriptions of the topic: done here without a delivery.
            core.window.settle(offset, false);
            core.stateLog.acked(offset);
            core.advanceFloorFrom(offset);
            return false;
        }
        if (traits.expireAt <= now)
        {
            dead.die(offset, DeadReason.EXPIRED, 0);
            return false;
        }
        if (groups.holdsBack(offset, traits.group))
        {
            return false;
        }
        if (traits.deliverAt > now)
        {
            delays.holdUntilDue(offset, traits.deliverAt);
            return false;
        }
        return true;
    }
}
