package io.spool.queue.internal.state;

import io.spool.queue.DeadReason;
import io.spool.queue.internal.table.DeadlineTimers;
import io.spool.queue.internal.table.InFlightTable;
import io.spool.queue.internal.table.OffsetWindow;

import java.util.function.LongPredicate;

/**
 * What happens when time passes: a lock ends (the delivery comes back), a delay ends (the message is ready), a time
 * to live ends (the message dies wherever it waits, but in a consumer's hands). Locks and delays come due on the
 * timer wheel, times to live from {@link MessageExpiry}'s queue; nothing scans the messages. Not thread-safe: owned
 * by the subscription partition's thread.
 */
final class Deadlines
{
    private final PartitionCore core;
    private final DeadLettering dead;
    private final Delays delays;
    private final Releases releases;
    private final DeadlineTimers.ExpiryHandler onDeadline = this::onDeadline;
    private final LongPredicate expireOne = this::expireOne;

    Deadlines(final PartitionCore core, final DeadLettering dead, final Delays delays, final Releases releases)
    {
        this.core = core;
        this.dead = dead;
        this.delays = delays;
        this.releases = releases;
    }

    /**
     * Returns deliveries whose lock deadline passed to available (redelivered), delayed messages that are due, and
     * kills messages whose time to live ended.
     *
     * @return the number of deliveries, delays and messages that ended.
     */
    int expireDue()
    {
        final long now = core.clock.time();
        return core.timers.expireDue(now, core.window.floor(), onDeadline) + core.expiry.expireDue(now, expireOne) +
            core.delayedAhead.releaseDue(now);
    }

    private void onDeadline(final int record)
    {
        final long offset = core.records.offset(record, core.window.floor());
        if (core.records.consumer(record) == InFlightTable.DELAYED)
        {
            delays.due(offset, record);
        }
        else
        {
            releases.lockExpired(offset, record);
        }
    }

    /**
     * Expires a message whose time to live ended, wherever it waits but in a consumer's hands: a held message
     * expires when it comes back; one waiting for its group or its key's owner goes dead where it waits and is
     * passed over when its turn comes.
     *
     * @return whether it expired now.
     */
    private boolean expireOne(final long offset)
    {
        final OffsetWindow window = core.window;
        if (offset < window.floor())
        {
            return false;
        }
        if (offset >= core.cursor)
        {
            window.ensureCovers(offset);
            if (window.isSettled(offset))
            {
                return false;
            }
            core.expiry.expiredAhead(offset);
            core.delayedAhead.release(offset);
            if (core.readyBytes != null)
            {
                core.readyBytes.expiredAhead(offset);
            }
            dead.die(offset, DeadReason.EXPIRED, 0);
            return true;
        }
        if (window.isSettled(offset))
        {
            return false;
        }
        if (window.isReady(offset))
        {
            core.clearReady(offset);
            dead.die(offset, DeadReason.EXPIRED, window.deliveryCount(offset));
            return true;
        }
        final int record = core.records.recordAt(offset);
        if (record == InFlightTable.NIL)
        {
            dead.die(offset, DeadReason.EXPIRED, window.deliveryCount(offset));
            return true;
        }
        if (core.records.consumer(record) != InFlightTable.DELAYED)
        {
            return false;
        }
        delays.expire(offset, record);
        return true;
    }
}
