package io.spool.queue;

/**
 * Acks a range of consecutive offsets of one delivery number, as a push consumer's in-order acks arrive: each offset
 * is checked and refused on its own, as a single ack would be, but the counts of held messages, the journal and the
 * ack floor move once per range rather than once per message. Not thread-safe: owned by the subscription
 * partition's thread.
 */
final class RangeAcks
{
    /** Told about each offset of a range whose ack was refused, and why. */
    @FunctionalInterface
    interface Refusals
    {
        void onRefused(int partition, long offset, int deliveryNumber, QueueException error);
    }

    private final PartitionCore core;
    private final Releases releases;
    private final GroupGate groups;

    RangeAcks(final PartitionCore core, final Releases releases, final GroupGate groups)
    {
        this.core = core;
        this.releases = releases;
        this.groups = groups;
    }

    /** Acks delivery {@code deliveryNumber} of the {@code count} offsets from {@code from} on. */
    void ack(final long from, final int count, final int deliveryNumber, final Refusals refusals)
    {
        final InFlightTable records = core.records;
        final OffsetWindow window = core.window;
        final long end = from + count;
        long journalFrom = from;
        int holder = InFlightTable.NIL;
        int held = 0;
        for (long offset = from; offset < end; offset++)
        {
            final int record;
            try
            {
                record = releases.heldRecord(offset, deliveryNumber, "ack");
            }
            catch (final QueueException ex)
            {
                journal(journalFrom, offset);
                journalFrom = offset + 1;
                refusals.onRefused(core.partition, offset, deliveryNumber, ex);
                continue;
            }
            final int consumerId = records.consumer(record);
            if (consumerId != holder)
            {
                core.endHolds(holder, held);
                holder = consumerId;
                held = 0;
            }
            held++;
            core.timers.unlink(record);
            records.free(record);
            window.settle(offset, false);
            core.firstDeliveries.settled(offset);
            groups.settled(offset);
        }
        core.endHolds(holder, held);
        journal(journalFrom, end);
        final long floor = window.floor();
        if (floor >= from && floor < end)
        {
            core.advanceFloorFrom(floor);
        }
    }

    private void journal(final long from, final long end)
    {
        if (end > from)
        {
            core.stateLog.ackedRange(from, (int)(end - from));
        }
    }
}
