package io.spool.queue.internal.state;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.internal.table.DeadlineTimers;
import io.spool.queue.internal.table.DelayedAhead;
import io.spool.queue.internal.table.FirstDeliveryTimes;
import io.spool.queue.internal.table.InFlightTable;
import io.spool.queue.internal.table.OffsetWindow;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.concurrent.EpochClock;

/**
 * The data that every part of one subscription partition's state works on (per-offset bits and counts, held
 * records and their deadlines, first delivery times, expiry, the read cursor, the log's start and end) and the moves
 * they all make: holding a message for a consumer, ending a hold, and moving the ack floor. Not thread-safe: owned by
 * the subscription partition's thread.
 * <p>
 * Design note: the parts ({@link SubscriptionPartitionState}, {@link DeliverySettlement}, {@link Releases},
 * {@link Delays}, {@link DeadLettering}, {@link GroupGate}, {@link Deadlines}, {@link MessageStateReader}) reach the
 * data through these fields rather than accessors: they are one state machine split by job, not independent objects.
 */
final class PartitionCore
{
    final int partition;
    final EpochClock clock;
    final OffsetWindow window;
    final InFlightTable records = new InFlightTable();
    final FirstDeliveryTimes firstDeliveries = new FirstDeliveryTimes();
    final DeadlineTimers timers;
    final MessageExpiry expiry;
    /** Messages past the cursor the read-ahead found waiting for their delivery time. */
    final DelayedAhead delayedAhead = new DelayedAhead();
    /** Dead messages whose copy the dead-letter topic has not confirmed. */
    final DueDeadLetters dueLetters = new DueDeadLetters();
    /** Scratch traits of the message being decided; reused so deciding allocates nothing. */
    final MessageTraits traits = new MessageTraits();
    private final Int2IntHashMap inFlightByConsumer = new Int2IntHashMap(0);
    /** Counts the bytes of ready messages when an overflow limit needs them, else null. */
    final ReadyBytes readyBytes;
    MessageInspector inspector = MessageInspector.PLAIN;
    StateLog stateLog;
    /** The next offset never delivered. */
    long cursor;
    long logEnd;
    /** The log's first offset: retention removed every offset below it. */
    long logStart;
    int inFlightCount;
    /** Acks that took effect since this state opened, single or in runs: the subscription's acks metric. */
    long ackCount;

    PartitionCore(final int partition, final SubscriptionSettings settings, final EpochClock clock,
        final long startOffset, final StateLog stateLog)
    {
        this.partition = partition;
        this.clock = clock;
        this.stateLog = stateLog;
        this.window = new OffsetWindow(startOffset);
        this.timers = new DeadlineTimers(records, clock.time());
        this.expiry = new MessageExpiry(startOffset, settings.messageTtlMillis() != SubscriptionSettings.NO_TTL,
            !settings.hasOverflowLimit(), clock, delayedAhead);
        this.readyBytes = settings.hasOverflowLimit() ? new ReadyBytes(this) : null;
        this.cursor = startOffset;
        this.logEnd = startOffset;
    }

    /** The message is acquired by {@code consumerId} until {@code deadline}. */
    void hold(final long offset, final int consumerId, final long deadline)
    {
        holdRecord(offset, consumerId, deadline);
        countHolds(consumerId, 1);
    }

    /** The record and lock of a held message; the caller counts it with {@link #countHolds}. */
    void holdRecord(final long offset, final int consumerId, final long deadline)
    {
        timers.schedule(records.allocate(offset, consumerId), deadline);
    }

    /** {@code count} more messages are in flight, held by {@code consumerId}; none if {@code count} is 0. */
    void countHolds(final int consumerId, final int count)
    {
        if (count == 0)
        {
            return;
        }
        inFlightCount += count;
        inFlightByConsumer.put(consumerId, inFlightByConsumer.get(consumerId) + count);
    }

    /**
     * An ack took effect on the held record at {@code offset}: its timer, its record and its place in the window go.
     * The caller ends its hold first (the record names the holder), and journals the ack.
     */
    void settleAcked(final long offset, final int record)
    {
        timers.unlink(record);
        records.free(record);
        window.settle(offset, false);
        firstDeliveries.settled(offset);
        ackCount++;
    }

    /** An acquired record stops counting as in flight, for the subscription and for its consumer. */
    void endHold(final int record)
    {
        endHolds(records.consumer(record), 1);
    }

    /** {@code count} records held by {@code consumerId} stop counting as in flight; none if {@code count} is 0. */
    void endHolds(final int consumerId, final int count)
    {
        if (count == 0)
        {
            return;
        }
        final int held = inFlightByConsumer.get(consumerId) - count;
        if (held == 0)
        {
            inFlightByConsumer.remove(consumerId);
        }
        else
        {
            inFlightByConsumer.put(consumerId, held);
        }
        inFlightCount -= count;
    }

    int inFlightOf(final int consumerId)
    {
        return inFlightByConsumer.get(consumerId);
    }

    /** A message was settled: if it was the lowest unsettled one, the ack floor moves past every settled one. */
    void advanceFloorFrom(final long settledOffset)
    {
        if (settledOffset == window.floor())
        {
            firstDeliveries.trimBelow(window.advanceFloor(cursor));
        }
    }

    /** A message waits to be delivered again. */
    void markReady(final long offset)
    {
        window.markReady(offset);
        if (readyBytes != null)
        {
            readyBytes.released(offset);
        }
    }

    /** A message no longer waits to be delivered again: taken, dropped, expired or put behind its group. */
    void clearReady(final long offset)
    {
        window.clearReady(offset);
        if (readyBytes != null)
        {
            readyBytes.taken(offset);
        }
    }

    /**
     * Reads the traits of a message the read cursor meets, unless the read-ahead already found it plain (never when
     * bytes are counted: the cursor then needs every message's size).
     */
    void inspectAtCursor(final long offset)
    {
        if (expiry.isKnownPlain(offset))
        {
            traits.clear();
        }
        else
        {
            delayedAhead.release(offset);
            inspector.inspect(offset, traits);
            expiry.metAtCursor(offset, traits);
            if (readyBytes != null)
            {
                readyBytes.metAtCursor(offset, traits);
            }
        }
    }

    long footprintBytes()
    {
        return window.footprintBytes() + records.footprintBytes() + timers.footprintBytes() +
            firstDeliveries.footprintBytes() + expiry.footprintBytes() + delayedAhead.footprintBytes() +
            (readyBytes == null ? 0 : readyBytes.footprintBytes()) +
            (long)inFlightByConsumer.capacity() * 2 * Integer.BYTES;
    }
}
