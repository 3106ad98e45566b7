package io.spool.queue.internal.state;

import io.spool.api.queue.RetryPolicy;
import io.spool.queue.DeadReason;
import io.spool.queue.internal.table.InFlightTable;

/**
 * Messages that wait for a time before they may be delivered: published with a delivery time, nacked with a
 * delay, or nacked under a retry ladder. A delayed message is a held record with the {@link InFlightTable#DELAYED}
 * holder and its due time on the
 * timer wheel, so it costs what an acquired message costs. Not thread-safe: owned by the subscription partition's
 * thread.
 */
final class Delays
{
    private final PartitionCore core;
    private final DeadLettering dead;
    private GroupGate groups;
    private int delayedCount;

    Delays(final PartitionCore core, final DeadLettering dead)
    {
        this.core = core;
        this.dead = dead;
    }

    /** The groups a due message may have to wait in; set once, as they also delay messages. */
    void groups(final GroupGate groups)
    {
        this.groups = groups;
    }

    /** A message held by nobody waits until {@code until}; restoring, so nothing is journaled. */
    void hold(final long offset, final long until)
    {
        core.timers.schedule(core.records.allocate(offset, InFlightTable.DELAYED), until);
        delayedCount++;
    }

    /** A message met (by the cursor or as next of its group) waits for its delivery time. */
    void holdUntilDue(final long offset, final long until)
    {
        hold(offset, until);
        core.stateLog.delayed(offset, until);
    }

    /**
     * An unlinked acquired record waits {@code delayMillis} to become available, or dies: expired when its time to
     * live has passed (as any held message coming back does), else past the limit.
     */
    void delayHeld(final long offset, final int record, final long delayMillis)
    {
        final int deliveries = core.window.deliveryCount(offset);
        core.endHold(record);
        final boolean expired = core.expiry.hasExpired(offset);
        if (expired || dead.isOverLimit(deliveries))
        {
            core.records.free(record);
            dead.die(offset, expired ? DeadReason.EXPIRED : DeadReason.DELIVERY_LIMIT, deliveries);
            return;
        }
        final long until = core.clock.time() + delayMillis;
        core.records.consumer(record, InFlightTable.DELAYED);
        core.timers.schedule(record, until);
        delayedCount++;
        core.stateLog.delayed(offset, until);
    }

    /**
     * A nacked, unlinked acquired record under a retry ladder waits the ladder's delay for its delivery count, or
     * dies past the last rung.
     */
    void retry(final long offset, final int record, final RetryPolicy ladder)
    {
        final int deliveries = core.window.deliveryCount(offset);
        final long delay = ladder.delayAfter(deliveries);
        if (delay < 0)
        {
            core.endHold(record);
            core.records.free(record);
            dead.die(offset, DeadReason.DELIVERY_LIMIT, deliveries);
            return;
        }
        delayHeld(offset, record, delay);
    }

    /**
     * A delay ended: the message is ready (or, behind its ordered group's head, waits for its turn), or dead if its
     * time to live passed while it waited.
     */
    void due(final long offset, final int record)
    {
        core.records.free(record);
        delayedCount--;
        if (core.expiry.hasExpired(offset))
        {
            dead.die(offset, DeadReason.EXPIRED, core.window.deliveryCount(offset));
        }
        else if (groups.mayBeReady(offset))
        {
            core.markReady(offset);
        }
    }

    /** A delayed message's time to live ended before its delay: it dies where it waits. */
    void expire(final long offset, final int record)
    {
        core.timers.unlink(record);
        core.records.free(record);
        delayedCount--;
        dead.die(offset, DeadReason.EXPIRED, core.window.deliveryCount(offset));
    }

    int count()
    {
        return delayedCount;
    }
}
