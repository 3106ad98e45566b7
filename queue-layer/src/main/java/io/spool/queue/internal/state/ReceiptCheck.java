package io.spool.queue.internal.state;

import io.spool.api.queue.AlreadySettledException;
import io.spool.api.queue.QueueException;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.StaleReceiptException;
import io.spool.api.queue.UnknownDeliveryException;
import io.spool.queue.internal.table.InFlightTable;
import io.spool.queue.internal.table.OffsetWindow;

/**
 * Decides whether a receipt names the delivery that holds its message now, and if not, builds the specific
 * exception that says why: already settled, never delivered, redelivered since, released, delayed, or lock expired.
 * Not thread-safe: owned by the subscription partition's thread. Allocates only when it refuses.
 */
public final class ReceiptCheck
{
    /** The holder a settlement through the subscription names: whoever holds the delivery, as SQS allows. */
    public static final int ANY_HOLDER = Integer.MIN_VALUE;
    /** The holder of what a pull receive acquired; push consumers are numbered from one up. */
    public static final int PULL_CONSUMER = 0;

    private final int partition;
    private final OffsetWindow window;
    private final InFlightTable records;

    ReceiptCheck(final int partition, final OffsetWindow window, final InFlightTable records)
    {
        this.partition = partition;
        this.window = window;
        this.records = records;
    }

    /**
     * @return the delivery number of a receipt for this partition.
     * @throws UnknownDeliveryException if the receipt is for another partition.
     */
    int deliveryNumberFor(final Receipt receipt, final String action)
    {
        if (receipt.partition() != partition)
        {
            throw new UnknownDeliveryException(action + " " + receipt + " refused: the receipt is for partition " +
                receipt.partition() + ", not partition " + partition);
        }
        return receipt.deliveryNumber();
    }

    /**
     * @param holder the consumer that settles, which must hold the delivery, or {@link #ANY_HOLDER}.
     * @return the record of the acquired delivery the receipt names; its lock deadline is left to the caller.
     * @throws QueueException naming why the receipt does not hold the message.
     */
    int heldRecord(final long offset, final int deliveryNumber, final long cursor, final int holder,
        final String action)
    {
        if (offset < 0 || offset >= cursor)
        {
            throw new UnknownDeliveryException(refusal(action, offset, deliveryNumber) +
                " offset " + offset + " was never delivered (next new delivery is offset " + cursor + ")");
        }
        if (offset < window.floor())
        {
            throw new AlreadySettledException(refusal(action, offset, deliveryNumber) +
                " the offset is below the ack floor " + window.floor() +
                ", so it was already acknowledged or dead-lettered");
        }
        if (window.isSettled(offset))
        {
            throw new AlreadySettledException(refusal(action, offset, deliveryNumber) +
                " the message was already " + (window.isDead(offset) ? "dead-lettered" : "acknowledged"));
        }
        final int current = window.deliveryCount(offset);
        if (deliveryNumber < 1 || deliveryNumber > current)
        {
            throw new UnknownDeliveryException(refusal(action, offset, deliveryNumber) +
                " delivery " + deliveryNumber + " never happened, the latest delivery is " + current);
        }
        if (deliveryNumber < current)
        {
            throw new StaleReceiptException(refusal(action, offset, deliveryNumber) +
                " the message was redelivered since as delivery " + current);
        }
        final int record = records.recordAt(offset);
        if (record == InFlightTable.NIL)
        {
            throw new StaleReceiptException(refusal(action, offset, deliveryNumber) +
                " the delivery was released or its lock expired; the message is available for redelivery");
        }
        if (records.consumer(record) == InFlightTable.DELAYED)
        {
            throw new StaleReceiptException(refusal(action, offset, deliveryNumber) +
                " the message was nacked with a delay until " + records.deadline(record) + " epoch ms");
        }
        if (holder != ANY_HOLDER && records.consumer(record) != holder)
        {
            throw new UnknownDeliveryException(refusal(action, offset, deliveryNumber) + " the delivery is " +
                holderName(records.consumer(record)) + "'s, not " + holderName(holder) +
                "'s: a consumer settles only its own deliveries (settle another's through the subscription, by its " +
                "receipt)");
        }
        return record;
    }

    private static String holderName(final int consumerId)
    {
        return consumerId == PULL_CONSUMER ? "a pull receive" : "consumer " + consumerId;
    }

    StaleReceiptException lockExpired(
        final String action, final long offset, final int deliveryNumber, final long deadline, final boolean isDead)
    {
        return new StaleReceiptException(refusal(action, offset, deliveryNumber) + " its lock expired at " +
            deadline + " epoch ms and the message was " +
            (isDead ? "dead-lettered on its delivery limit" : "released for redelivery"));
    }

    private String refusal(final String action, final long offset, final int deliveryNumber)
    {
        return action + " receipt (partition " + partition + ", offset " + offset + ", delivery " + deliveryNumber +
            ") refused:";
    }
}
