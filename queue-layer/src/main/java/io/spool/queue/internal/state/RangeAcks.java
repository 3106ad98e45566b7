package io.spool.queue.internal.state;

import io.spool.api.queue.QueueException;
import io.spool.queue.internal.table.InFlightTable;
import io.spool.queue.internal.table.OffsetWindow;

/**
 * Acks a range of consecutive offsets of one delivery number, as a push consumer's in-order acks arrive: each offset
 * is checked and refused on its own, as a single ack would be, but the counts of held messages, the journal and the
 * ack floor move once per range rather than once per message. Not thread-safe: owned by the subscription
 * partition's thread.
 */
public final class RangeAcks
{
    /** Told about each offset of a range whose ack was refused, and why. */
    @FunctionalInterface
    public interface Refusals
    {
        void onRefused(int partition, long offset, int deliveryNumber, QueueException error);
    }

    private final PartitionCore core;
    private final Releases releases;
    private final GroupGate groups;
    /** The consumer whose ended holds are being counted in {@link #held}, during one {@link #ack}. */
    private int holder;
    private int held;

    RangeAcks(final PartitionCore core, final Releases releases, final GroupGate groups)
    {
        this.core = core;
        this.releases = releases;
        this.groups = groups;
    }

    /**
     * Acks delivery {@code deliveryNumber} of the {@code count} offsets from {@code from} on: stretches that are
     * plainly held (one consumer, in their lock's run, unexpired, this delivery) in one pass per structure, any
     * other offset on its own.
     */
    void ack(final long from, final int count, final int deliveryNumber, final int settler, final Refusals refusals)
    {
        final InFlightTable records = core.records;
        final OffsetWindow window = core.window;
        final long end = from + count;
        final long now = core.clock.time();
        long journalFrom = from;
        holder = InFlightTable.NIL;
        held = 0;
        long offset = from;
        while (offset < end)
        {
            final int plain = plainlyHeld(offset, end, deliveryNumber, settler, now);
            if (plain > 0)
            {
                endHolds(records.consumer(records.recordAt(offset)), plain);
                core.timers.unlinkMarked(plain);
                records.freeRun(offset, plain);
                window.settleRun(offset, plain);
                core.firstDeliveries.settledRun(offset, plain);
                groups.settledRun(offset, plain);
                core.ackCount += plain;
                offset += plain;
                continue;
            }
            final int record;
            try
            {
                record = releases.heldRecord(offset, deliveryNumber, settler, Settlement.ACK.action());
            }
            catch (final QueueException ex)
            {
                journal(journalFrom, offset);
                journalFrom = offset + 1;
                refusals.onRefused(core.partition, offset, deliveryNumber, ex);
                offset++;
                continue;
            }
            endHolds(records.consumer(record), 1);
            core.settleAcked(offset, record);
            groups.settled(offset);
            offset++;
        }
        core.endHolds(holder, held);
        journal(journalFrom, end);
        final long floor = window.floor();
        if (floor >= from && floor < end)
        {
            core.advanceFloorFrom(floor);
        }
    }

    /** Counts ended holds per consumer, telling the core once the consumer changes (or the range ends). */
    private void endHolds(final int consumerId, final int count)
    {
        if (consumerId != holder)
        {
            core.endHolds(holder, held);
            holder = consumerId;
            held = 0;
        }
        held += count;
    }

    /**
     * How many offsets from {@code offset} on an ack of {@code deliveryNumber} by {@code settler} takes without a
     * question: below the read cursor, unsettled, of that delivery, held in their lock's run by the settler until after
     * {@code now}; within one word of the window and one page of records.
     */
    private int plainlyHeld(final long offset, final long end, final int deliveryNumber, final int settler,
        final long now)
    {
        if (offset < core.window.floor() || offset >= core.cursor)
        {
            return 0;
        }
        final int unsettled = core.window.unsettledWithCount(offset, (int)(Math.min(end, core.cursor) - offset),
            deliveryNumber);
        if (unsettled == 0)
        {
            return 0;
        }
        final int run = core.timers.markedRunLength(offset, unsettled, now);
        return run > 0 && settler != ReceiptCheck.ANY_HOLDER &&
            core.records.consumer(core.records.recordAt(offset)) != settler ? 0 : run;
    }

    private void journal(final long from, final long end)
    {
        if (end > from)
        {
            core.stateLog.ackedRange(from, (int)(end - from));
        }
    }
}
