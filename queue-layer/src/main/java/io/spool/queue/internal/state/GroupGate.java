package io.spool.queue.internal.state;

import io.spool.api.queue.GroupMode;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.DeadReason;
import io.spool.queue.internal.table.InFlightTable;
import io.spool.queue.internal.table.OffsetWindow;

/**
 * Message groups for one subscription partition. With {@link GroupMode#ORDERED} (SQS FIFO) a receive, or a push
 * consumer's credit, that takes a group's head takes the messages behind it along, in offset order, as one run held
 * by that one receiver; the group is blocked to everyone until the whole run is settled, and a member that comes
 * back unsettled (a nack, an expired lock, its consumer gone) brings back the members after it, so the group's next
 * run starts again from it, in order. With {@link GroupMode#KEY_STICKY} each group stays with the consumer that holds
 * its older messages. Without groups every gate is open. Not thread-safe: owned by the subscription partition's
 * thread.
 * <p>
 * Design note: a run is always the group's head and the unsettled members right behind it, so a group is free exactly
 * when its head holds no record, and only a free group's head is ever ready; the members behind it wait without a
 * ready bit, taken from the group's chain when a run reaches them.
 */
final class GroupGate
{
    private final PartitionCore core;
    private final DeadLettering dead;
    private final Delays delays;
    private final MessageGroups groups = new MessageGroups();
    private final boolean ordered;
    private final KeyStickyGroups sticky;

    GroupGate(final PartitionCore core, final SubscriptionSettings settings, final DeadLettering dead,
        final Delays delays)
    {
        this.core = core;
        this.dead = dead;
        this.delays = delays;
        this.ordered = settings.groupMode() == GroupMode.ORDERED;
        this.sticky = settings.groupMode() == GroupMode.KEY_STICKY ? new KeyStickyGroups() : null;
    }

    /** With key-sticky groups, the next message queued for {@code consumerId} by its key, else
     * {@link KeyStickyGroups#NONE}. */
    long nextQueued(final int consumerId)
    {
        return sticky == null ? KeyStickyGroups.NONE : sticky.nextQueued(consumerId);
    }

    /** Whether a message met by the read cursor waits behind the head of its ordered group (it is queued there). */
    boolean holdsBack(final long offset, final int group)
    {
        return ordered && group != MessageTraits.NO_GROUP && !groups.open(group, offset);
    }

    /**
     * With ordered groups, the next member of the run that {@code previous} (the group's head, or the run's last
     * member so far) started: the next unsettled message of the group, if it is due; it is marked taken. Members that
     * expired while they waited die on the way.
     *
     * @return its offset, or {@link MessageGroups#NONE} where the run ends.
     */
    long nextInRun(final long previous)
    {
        if (!ordered)
        {
            return MessageGroups.NONE;
        }
        long next = groups.next(previous);
        while (next != MessageGroups.NONE)
        {
            if (isSettled(next))
            {
                next = groups.next(next);
                continue;
            }
            if (core.records.recordAt(next) != InFlightTable.NIL)
            {
                // Nacked with a delay in its place: the run ends before it.
                return MessageGroups.NONE;
            }
            if (diedWaiting(next))
            {
                next = groups.next(next);
                continue;
            }
            if (core.traits.deliverAt > core.clock.time())
            {
                return MessageGroups.NONE;
            }
            groups.outOfLine(next);
            return next;
        }
        return MessageGroups.NONE;
    }

    /**
     * With ordered groups, the next member after {@code offset} of its group that a consumer holds (in the run
     * {@code offset} belongs to), or {@link MessageGroups#NONE}: the members to bring back with it.
     */
    long nextHeldAfter(final long offset)
    {
        if (!ordered)
        {
            return MessageGroups.NONE;
        }
        long next = groups.next(offset);
        while (next != MessageGroups.NONE && (next < core.window.floor() || core.window.isSettled(next)))
        {
            next = groups.next(next);
        }
        if (next == MessageGroups.NONE)
        {
            return MessageGroups.NONE;
        }
        final int record = core.records.recordAt(next);
        return record != InFlightTable.NIL && core.records.consumer(record) >= 0 ? next : MessageGroups.NONE;
    }

    /**
     * Whether a message that nobody holds any more (it came back, or its delay ended) may be ready: not if it is
     * behind its group's head, where it waits for its turn again.
     */
    boolean mayBeReady(final long offset)
    {
        return !ordered || !groups.backInLine(offset);
    }

    /** Whether a new message of {@code group} may go to {@code consumerId}; if not, it waits for its key's owner. */
    boolean takeNew(final long offset, final int group, final int consumerId)
    {
        return sticky == null || group == MessageTraits.NO_GROUP || sticky.take(offset, group, consumerId);
    }

    /** Whether a released message may go to {@code consumerId}; if not, it waits for its key's owner. */
    boolean takeReleased(final long offset, final int consumerId)
    {
        if (sticky == null)
        {
            return true;
        }
        final int group;
        if (sticky.knows(offset))
        {
            group = sticky.groupOf(offset);
        }
        else
        {
            core.inspector.inspect(offset, core.traits);
            group = core.traits.group;
        }
        return group == MessageTraits.NO_GROUP || sticky.take(offset, group, consumerId);
    }

    /** The {@code count} messages from {@code from} on were acked: {@link #settled} for each, if any can matter. */
    void settledRun(final long from, final int count)
    {
        if (sticky == null && groups.hasNoHeads())
        {
            return;
        }
        for (long offset = from; offset < from + count; offset++)
        {
            settled(offset);
        }
    }

    /**
     * The message at {@code offset} was acked or went dead: its key no longer ties it to a consumer, and if it
     * headed an ordered group, the next unsettled message of the group heads it now; unless it is out already (in the
     * run, or delayed), it becomes available (or delayed, or dead if it expired while it waited).
     */
    void settled(final long offset)
    {
        if (sticky != null)
        {
            sticky.settled(offset);
        }
        groups.backInLine(offset);
        long next = groups.settled(offset);
        while (next != MessageGroups.NONE)
        {
            if (isSettled(next))
            {
                // Settled in the run, or expired while it waited.
                next = groups.settled(next);
                continue;
            }
            if (core.records.recordAt(next) != InFlightTable.NIL)
            {
                // Still in the run, or delayed in its place: the group stays blocked until it settles or is due.
                groups.backInLine(next);
                return;
            }
            if (diedWaiting(next))
            {
                next = groups.settled(next);
                continue;
            }
            if (core.traits.deliverAt > core.clock.time())
            {
                delays.holdUntilDue(next, core.traits.deliverAt);
            }
            else
            {
                core.markReady(next);
            }
            return;
        }
    }

    private boolean isSettled(final long offset)
    {
        return offset < core.window.floor() || core.window.isSettled(offset);
    }

    /**
     * Reads the traits of a message waiting in its group into the core's traits, and kills it if its time to live
     * ended while it waited.
     *
     * @return whether it died.
     */
    private boolean diedWaiting(final long offset)
    {
        core.inspector.inspect(offset, core.traits);
        if (core.traits.expireAt <= core.clock.time())
        {
            dead.markDead(offset, DeadReason.EXPIRED, core.window.deliveryCount(offset));
            return true;
        }
        return false;
    }

    /** A consumer left: the keys it owned go to whoever asks next, their queued messages ready again. */
    void consumerGone(final int consumerId)
    {
        if (sticky != null)
        {
            sticky.consumerGone(consumerId, core::markReady);
        }
    }

    /**
     * After a restore, puts every unsettled message behind the head of its group again, reading the groups from
     * the log: what was released becomes available only if it heads its group.
     */
    void rebuild()
    {
        if (!ordered)
        {
            return;
        }
        final OffsetWindow window = core.window;
        for (long offset = window.floor(); offset < core.cursor; offset++)
        {
            if (window.isSettled(offset))
            {
                continue;
            }
            core.inspector.inspect(offset, core.traits);
            if (core.traits.group != MessageTraits.NO_GROUP && !groups.open(core.traits.group, offset))
            {
                if (window.isReady(offset))
                {
                    core.clearReady(offset);
                }
                else if (core.records.recordAt(offset) != InFlightTable.NIL)
                {
                    // Nacked with a delay behind a head the restart brought back: it is due in its place.
                    groups.outOfLine(offset);
                }
            }
        }
    }

    /**
     * Messages behind the head of their group (waiting, or out in the head's run), or waiting for the consumer that
     * owns their key.
     */
    int waitingCount()
    {
        return groups.waitingCount() + (sticky == null ? 0 : sticky.queuedCount());
    }

    long footprintBytes()
    {
        return groups.footprintBytes() + (sticky == null ? 0 : sticky.footprintBytes());
    }
}
