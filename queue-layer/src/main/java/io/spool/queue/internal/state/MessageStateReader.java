package io.spool.queue.internal.state;

import io.spool.api.InvalidRequestException;
import io.spool.queue.internal.table.FirstDeliveryTimes;
import io.spool.queue.internal.table.InFlightTable;
import io.spool.queue.internal.table.OffsetWindow;

/**
 * Answers what the state machine holds about a message or the partition, for metrics, tools and tests; reads only.
 * Not thread-safe: owned by the subscription partition's thread.
 */
final class MessageStateReader
{
    private final PartitionCore core;

    MessageStateReader(final PartitionCore core)
    {
        this.core = core;
    }

    /**
     * @throws InvalidRequestException if the offset is negative, or at or past the log end.
     */
    MessageState state(final long offset)
    {
        final OffsetWindow window = core.window;
        if (offset < 0)
        {
            throw new InvalidRequestException("offsets are >= 0, was " + offset);
        }
        if (offset < window.floor())
        {
            return MessageState.ACKED;
        }
        if (offset >= core.logEnd && offset >= core.cursor)
        {
            throw new InvalidRequestException("offset " + offset + " of partition " + core.partition +
                " is at or past the log end " + core.logEnd);
        }
        if (offset >= core.cursor)
        {
            if (core.expiry.isExpiredAhead(offset, window))
            {
                return MessageState.DEAD;
            }
            return core.delayedAhead.holds(offset) ? MessageState.DELAYED : MessageState.AVAILABLE;
        }
        if (window.isReady(offset))
        {
            return MessageState.AVAILABLE;
        }
        if (window.isSettled(offset))
        {
            return window.isDead(offset) ? MessageState.DEAD : MessageState.ACKED;
        }
        final int record = core.records.recordAt(offset);
        if (record == InFlightTable.NIL)
        {
            return MessageState.AVAILABLE;
        }
        return core.records.consumer(record) == InFlightTable.DELAYED ? MessageState.DELAYED : MessageState.ACQUIRED;
    }

    /** How often the message was delivered; 0 if never, and 0 below the ack floor, where counts are dropped. */
    int deliveryCount(final long offset)
    {
        return offset < core.window.floor() || offset >= core.cursor ? 0 : core.window.deliveryCount(offset);
    }

    /** When the message was first delivered (epoch ms; the same on every redelivery), or -1 if never. */
    long firstDeliveryTime(final long offset)
    {
        return offset < core.window.floor() ? FirstDeliveryTimes.UNKNOWN : core.firstDeliveries.timeOf(offset);
    }

    /** The lock deadline of an acquired message or the due time of a delayed one, else -1. */
    long deadline(final long offset)
    {
        final int record = heldRecordAt(offset);
        return record == InFlightTable.NIL ? -1 : core.records.deadline(record);
    }

    /** The consumer holding an acquired message, else -1. */
    int holder(final long offset)
    {
        final int record = heldRecordAt(offset);
        return record == InFlightTable.NIL ? -1 : Math.max(-1, core.records.consumer(record));
    }

    /**
     * Messages that an acquire could hand out now: released ones plus those not yet delivered, but for those that
     * expired, or wait for their delivery time, ahead of the cursor.
     */
    long readyCount()
    {
        return core.window.readyCount() + (core.logEnd - core.cursor) - core.expiry.expiredAheadCount() -
            core.delayedAhead.count();
    }

    /** The lowest offset an acquire would hand out now, or -1 if none is ready; the owner turns it into an age. */
    long oldestReadyOffset()
    {
        if (core.window.readyCount() > 0)
        {
            return core.window.lowestReady();
        }
        long unread = core.cursor;
        while (unread < core.logEnd &&
            (core.expiry.isExpiredAhead(unread, core.window) || core.delayedAhead.holds(unread)))
        {
            unread++;
        }
        return unread < core.logEnd ? unread : -1;
    }

    private int heldRecordAt(final long offset)
    {
        return offset < core.window.floor() || offset >= core.cursor ? InFlightTable.NIL :
            core.records.recordAt(offset);
    }
}
