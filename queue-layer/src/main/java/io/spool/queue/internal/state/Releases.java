package io.spool.queue.internal.state;

import io.spool.queue.DeadReason;
import io.spool.queue.internal.table.InFlightTable;

/**
 * Held messages coming back: a delivery released by a nack, a lock that ended, a consumer that left, or a restart.
 * A returned message is available again, marked redelivered, or dead when it reached its delivery limit or its time
 * to live passed; one behind its ordered group's head waits there for its turn. It also names the record a receipt
 * holds, refusing stale ones. Not thread-safe: owned by the
 * subscription partition's thread.
 */
final class Releases
{
    private final PartitionCore core;
    private final DeadLettering dead;
    private final GroupGate groups;
    private final ReceiptCheck receiptCheck;
    private LockExpiryHandler lockExpiryHandler = LockExpiryHandler.NONE;

    Releases(final PartitionCore core, final DeadLettering dead, final GroupGate groups)
    {
        this.core = core;
        this.dead = dead;
        this.groups = groups;
        this.receiptCheck = new ReceiptCheck(core.partition, core.window, core.records);
    }

    ReceiptCheck receiptCheck()
    {
        return receiptCheck;
    }

    /** Who to tell when a delivery's lock expires, so its consumer can learn its receipt went stale. */
    void lockExpiryHandler(final LockExpiryHandler handler)
    {
        lockExpiryHandler = handler == null ? LockExpiryHandler.NONE : handler;
    }

    /**
     * The record of the delivery that holds the message now, held by {@code holder} (or by anyone, for
     * {@link ReceiptCheck#ANY_HOLDER}), or a specific exception saying why there is none.
     */
    int heldRecord(final long offset, final int deliveryNumber, final int holder, final String action)
    {
        final int record = receiptCheck.heldRecord(offset, deliveryNumber, core.cursor, holder, action);
        final long deadline = core.records.deadline(record);
        if (deadline <= core.clock.time())
        {
            // The timer has not fired yet, but the lock is over: expire it now so the answer never depends on
            // when the owner last polled the timers.
            final int consumerId = core.records.consumer(record);
            core.timers.unlink(record);
            returnHeld(offset, record);
            lockExpiryHandler.onLockExpired(offset, consumerId, deliveryNumber);
            throw receiptCheck.lockExpired(action, offset, deliveryNumber, deadline,
                offset < core.window.floor() || core.window.isSettled(offset));
        }
        return record;
    }

    /** A delivery's lock ended before it was settled: the message comes back and its consumer is told. */
    void lockExpired(final long offset, final int record)
    {
        final int consumerId = core.records.consumer(record);
        final int deliveryNumber = core.window.deliveryCount(offset);
        returnHeld(offset, record);
        lockExpiryHandler.onLockExpired(offset, consumerId, deliveryNumber);
    }

    /**
     * An unlinked acquired record comes back: available again, or dead past the delivery limit; with ordered groups
     * the members of its run after it come back with it.
     */
    void returnHeld(final long offset, final int record)
    {
        core.endHold(record);
        core.records.free(record);
        returnRunBehind(offset);
        giveBack(offset);
    }

    /**
     * The held message at {@code offset} leaves its ordered group's run unsettled (nacked, lock expired, consumer
     * gone): the members of the run after it come back too, to wait their turn in order, or die past their limit or
     * time to live. Their receipts go stale.
     */
    void returnRunBehind(final long offset)
    {
        for (long member = groups.nextHeldAfter(offset); member != MessageGroups.NONE;
            member = groups.nextHeldAfter(member))
        {
            final int record = core.records.recordAt(member);
            core.timers.unlink(record);
            core.endHold(record);
            core.records.free(record);
            giveBack(member);
        }
    }

    /**
     * Returns every delivery a consumer holds to available (marked redelivered), as when it closes or its
     * connection is lost. Visits the pages of held records, not the whole window.
     *
     * @return the number of deliveries released (including those that went dead on their delivery limit).
     */
    int releaseConsumer(final int consumerId)
    {
        final InFlightTable records = core.records;
        int released = 0;
        for (int slot = 0, slots = records.tableSlots(); slot < slots; slot++)
        {
            for (int i = 0, size = InFlightTable.pageSize(); i < size && records.hasPage(slot); i++)
            {
                final int record = records.recordInSlot(slot, i);
                if (record != InFlightTable.NIL && records.consumer(record) == consumerId)
                {
                    core.timers.unlink(record);
                    returnHeld(records.offset(record, core.window.floor()), record);
                    released++;
                }
            }
        }
        groups.consumerGone(consumerId);
        return released;
    }

    /** A message nobody holds any more becomes available again, or dead if it reached the delivery limit. */
    void giveBack(final long offset)
    {
        giveBack(offset, core.expiry.hasExpired(offset));
    }

    /** A message nobody holds any more: dead if {@code expired} or past its limit, else available again. */
    void giveBack(final long offset, final boolean expired)
    {
        final int deliveries = core.window.deliveryCount(offset);
        if (expired)
        {
            dead.die(offset, DeadReason.EXPIRED, deliveries);
        }
        else if (dead.isOverLimit(deliveries))
        {
            dead.die(offset, DeadReason.DELIVERY_LIMIT, deliveries);
        }
        else if (groups.mayBeReady(offset))
        {
            core.markReady(offset);
        }
    }
}
