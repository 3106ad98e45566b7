package io.spool.queue.internal.delivery;

import io.spool.api.InvalidRequestException;
import io.spool.api.SpoolException;
import io.spool.api.queue.QueueException;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.UnknownDeliveryException;
import io.spool.queue.QueueConsumer;
import io.spool.queue.internal.state.RangeAcks;
import io.spool.queue.internal.state.ReceiptCheck;
import io.spool.queue.internal.state.Settlement;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;

import java.util.List;

/**
 * Applies what consumers settle, on the agent thread: single settlements of pull callers and of push consumers'
 * rings, and the runs of in-order acks push consumers make on their own threads ({@link AckRun}), each run's new
 * acks settled as one range per partition state. A push consumer settles only the deliveries it holds; a
 * settlement by receipt through the subscription, any delivery of this subscription whose receipt it names. A refused
 * settlement of a push consumer is reported to that consumer, one receipt at a time. Not thread-safe: owned by the
 * subscription's agent thread.
 */
final class SettlementIntake
{
    /** Ring entries read per consumer per pass, so one busy consumer cannot hold the pass. */
    private static final int SETTLEMENTS_PER_PASS = 4096;
    /** Ring reads a pass makes for a consumer whose ack run moved on while it was read. */
    private static final int REREADS_PER_PASS = 4;

    private final String name;
    private final long issuer;
    private final PartitionWorker[] partitions;
    private final MessageHandler settlementHandler = this::onSettlement;
    private final AckRun.RangeHandler ackRange = this::ackRange;
    private final RangeAcks.Refusals refusal = this::refused;
    private QueueConsumer settling;

    SettlementIntake(final String name, final long issuer, final PartitionWorker[] partitions)
    {
        this.name = name;
        this.issuer = issuer;
        this.partitions = partitions;
    }

    /**
     * Applies what the consumers settled since the last pass: their rings, then the acks their open runs gained.
     *
     * @return the number of ring entries and acks applied.
     */
    int apply(final List<QueueConsumer> consumers)
    {
        int work = 0;
        for (int i = 0; i < consumers.size(); i++)
        {
            work += apply(consumers.get(i));
        }
        return work;
    }

    /** Applies everything a consumer leaving has settled. */
    void drain(final QueueConsumer consumer)
    {
        while (apply(consumer) > 0)
        {
            continue;
        }
    }

    /** Whether a consumer has settled something not applied yet. */
    boolean hasPending(final List<QueueConsumer> consumers)
    {
        for (int i = 0; i < consumers.size(); i++)
        {
            final QueueConsumer consumer = consumers.get(i);
            if (consumer.settlements.size() > 0 || consumer.ackRun.unsettled())
            {
                return true;
            }
        }
        return false;
    }

    private int apply(final QueueConsumer consumer)
    {
        settling = consumer;
        int work = 0;
        int polled;
        int reads = 0;
        do
        {
            work += consumer.settlements.read(settlementHandler, SETTLEMENTS_PER_PASS);
            polled = consumer.ackRun.poll(ackRange);
            work += Math.max(0, polled);
        }
        while (polled < 0 && ++reads < REREADS_PER_PASS);
        settling = null;
        return work;
    }

    /**
     * Applies one settlement made through the subscription, by receipt, to whichever consumer holds the delivery.
     *
     * @return null when it took effect, else the error that says why not.
     */
    SpoolException settle(final Settlement settlement, final Receipt receipt, final long argument)
    {
        if (receipt.issuer() != issuer)
        {
            return foreign(settlement, receipt);
        }
        return settle(settlement, receipt.partition(), receipt.offset(), receipt.deliveryNumber(), argument,
            ReceiptCheck.ANY_HOLDER);
    }

    /** What acting on a receipt this subscription did not issue gets: nothing changes. */
    UnknownDeliveryException foreign(final Settlement settlement, final Receipt receipt)
    {
        return new UnknownDeliveryException(settlement.action() + " " + receipt +
            " refused: subscription " + name + " did not issue that receipt (it comes from another subscription, " +
            "from one deleted since, or was made up)");
    }

    /**
     * Applies one settlement for {@code holder}, which must hold the delivery, or for
     * {@link ReceiptCheck#ANY_HOLDER}.
     *
     * @return null when it took effect, else the error that says why not.
     */
    private SpoolException settle(final Settlement settlement, final int partition, final long offset,
        final int deliveryNumber, final long argument, final int holder)
    {
        if (partition < 0 || partition >= partitions.length)
        {
            return noSuchPartition(partition, offset, deliveryNumber);
        }
        try
        {
            partitions[partition].state().settle(settlement, offset, deliveryNumber, argument, holder);
            return null;
        }
        catch (final QueueException | InvalidRequestException ex)
        {
            return ex;
        }
    }

    private UnknownDeliveryException noSuchPartition(final int partition, final long offset, final int deliveryNumber)
    {
        return new UnknownDeliveryException("subscription " + name + " has no partition " + partition +
            " (receipt for offset " + offset + ", delivery " + deliveryNumber + ")");
    }

    private void onSettlement(final int code, final MutableDirectBuffer buffer, final int index, final int length)
    {
        switch (code)
        {
            case AckRun.OPENED:
                settling.ackRun.onOpened((int)SettlementEntry.argument(buffer, index),
                    SettlementEntry.partition(buffer, index), SettlementEntry.offset(buffer, index),
                    SettlementEntry.deliveryNumber(buffer, index), ackRange);
                break;
            case AckRun.ENDED:
                settling.ackRun.onEnded(buffer.getLong(index), ackRange);
                break;
            default:
                final int partition = SettlementEntry.partition(buffer, index);
                final int deliveryNumber = SettlementEntry.deliveryNumber(buffer, index);
                final long offset = SettlementEntry.offset(buffer, index);
                final SpoolException error = settle(Settlement.ofCode(code), partition, offset, deliveryNumber,
                    SettlementEntry.argument(buffer, index), settling.id());
                if (error != null)
                {
                    refused(partition, offset, deliveryNumber, error);
                }
        }
    }

    private void ackRange(final int partition, final long from, final int count, final int deliveryNumber)
    {
        if (partition < 0 || partition >= partitions.length)
        {
            for (long offset = from, end = from + count; offset < end; offset++)
            {
                refused(partition, offset, deliveryNumber, noSuchPartition(partition, offset, deliveryNumber));
            }
            return;
        }
        partitions[partition].state().ackRange(from, count, deliveryNumber, settling.id(), refusal);
    }

    private void refused(final int partition, final long offset, final int deliveryNumber, final SpoolException error)
    {
        settling.refused(new Receipt(issuer, partition, offset, deliveryNumber), error);
    }
}
