package io.spool.wire.client;

import io.netty.buffer.ByteBuf;
import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.MessageListener;
import io.spool.api.queue.PushConsumer;
import io.spool.api.queue.Receipt;
import io.spool.wire.ErrorDescriptor;
import io.spool.wire.FrameDescriptor;
import io.spool.wire.OpCode;
import io.spool.wire.QueueDescriptor.SettleKind;
import io.spool.wire.QueueDescriptor;

/**
 * A push consumer of a subscription on the server. Deliveries reach the {@link RemoteDeliveryListener} on the
 * connection's thread as flyweight views over their frames; settle them from any thread with {@link #ack},
 * {@link #nack} (at once or after a delay), {@link #reject} or {@link #extend}, which send one small frame and wait
 * for nothing (a refused receipt comes back to the listener, and so does a lock that ran out). Receiving and acking
 * allocate no objects of their own. Closing it returns every delivery it holds to ready. Thread-safe.
 */
public final class RemoteQueueConsumer implements PushConsumer, PushHandler
{
    private final ClientConnection connection;
    private final String subscription;
    private final ConsumerOptions options;
    /** Told of refused settlements and expired locks. */
    private final MessageListener listener;
    /** The listener as each push calls it: typed deliveries need no bridge. */
    private final RemoteDeliveryListener deliveries;
    private final int tag;
    private final RemoteDeliveryView view = new RemoteDeliveryView();
    private volatile boolean closed;

    RemoteQueueConsumer(final ClientConnection connection, final String subscription, final ConsumerOptions options,
        final MessageListener listener)
    {
        this.connection = connection;
        this.subscription = subscription;
        this.options = options;
        this.listener = listener;
        this.deliveries = listener instanceof RemoteDeliveryListener typed ? typed : listener::onMessage;
        this.tag = connection.registerConsumer(this);
    }

    int tag()
    {
        return tag;
    }

    public ConsumerOptions options()
    {
        return options;
    }

    /** Acks a delivery; in auto-ack mode it is already settled and this does nothing. */
    public void ack(final Receipt receipt)
    {
        ack(receipt.issuer(), receipt.partition(), receipt.offset(), receipt.deliveryNumber());
    }

    /** Acks the delivery in view, allocating nothing; in auto-ack mode this does nothing. */
    public void ack(final RemoteDeliveryView delivery)
    {
        ack(delivery.issuer(), delivery.partition(), delivery.offset(), delivery.deliveryNumber());
    }

    /** Acks by the parts of a receipt, allocating nothing; in auto-ack mode this does nothing. */
    public void ack(final long issuer, final int partition, final long offset, final int deliveryNumber)
    {
        if (!options.autoAck())
        {
            settle(SettleKind.ACK, issuer, partition, offset, deliveryNumber, 0);
        }
    }

    /** Returns the delivery to ready, to be delivered again (redelivered). */
    public void nack(final Receipt receipt)
    {
        settle(SettleKind.NACK, receipt, 0);
    }

    public void nack(final RemoteDeliveryView delivery)
    {
        settle(SettleKind.NACK, delivery, 0);
    }

    /** Returns the delivery, due again (redelivered) after {@code delayMillis} on the server's clock. */
    public void nack(final Receipt receipt, final long delayMillis)
    {
        settle(SettleKind.NACK_DELAYED, receipt, delayMillis);
    }

    public void nack(final RemoteDeliveryView delivery, final long delayMillis)
    {
        settle(SettleKind.NACK_DELAYED, delivery, delayMillis);
    }

    /** Dead-letters the delivery with reason rejected. */
    public void reject(final Receipt receipt)
    {
        settle(SettleKind.REJECT, receipt, 0);
    }

    public void reject(final RemoteDeliveryView delivery)
    {
        settle(SettleKind.REJECT, delivery, 0);
    }

    /**
     * Keeps the delivery locked until the server's now plus {@code lockMillis}; without it, a delivery held past the
     * subscription's lock timeout goes back to the subscription and the listener hears of it
     * ({@link RemoteDeliveryListener#onLockExpired}).
     */
    public void extend(final Receipt receipt, final long lockMillis)
    {
        settle(SettleKind.EXTEND, receipt, lockMillis);
    }

    public void extend(final RemoteDeliveryView delivery, final long lockMillis)
    {
        settle(SettleKind.EXTEND, delivery, lockMillis);
    }

    private void settle(final SettleKind kind, final Receipt receipt, final long argumentMillis)
    {
        settle(kind, receipt.issuer(), receipt.partition(), receipt.offset(), receipt.deliveryNumber(), argumentMillis);
    }

    private void settle(final SettleKind kind, final RemoteDeliveryView delivery, final long argumentMillis)
    {
        settle(kind, delivery.issuer(), delivery.partition(), delivery.offset(), delivery.deliveryNumber(),
            argumentMillis);
    }

    private void settle(final SettleKind kind, final long issuer, final int partition, final long offset,
        final int deliveryNumber, final long argumentMillis)
    {
        final ByteBuf out = connection.alloc().ioBuffer(FrameDescriptor.HEADER_LENGTH +
            QueueDescriptor.CONSUMER_SETTLE_FIXED_LENGTH + QueueDescriptor.RECEIPT_LENGTH);
        FrameDescriptor.begin(out, OpCode.CONSUMER_SETTLE, 0, 0);
        out.writeIntLE(tag);
        out.writeByte(kind.ordinal());
        out.writeLongLE(argumentMillis);
        out.writeIntLE(1);
        QueueDescriptor.encodeReceipt(out, issuer, partition, offset, deliveryNumber);
        FrameDescriptor.finish(out, 0);
        connection.sendOneWay(out);
    }

    @Override
    public void onPush(final int opCode, final ByteBuf body)
    {
        if (opCode == OpCode.DELIVERY)
        {
            deliveries.onDelivery(view.wrap(subscription, body), this);
        }
        else if (opCode == OpCode.SETTLEMENT_REFUSED)
        {
            final Receipt receipt = QueueDescriptor.decodeReceipt(body);
            listener.onSettlementRefused(receipt, ErrorDescriptor.decodeRefusal(body));
        }
        else if (opCode == OpCode.LOCK_EXPIRED)
        {
            listener.onLockExpired(QueueDescriptor.decodeReceipt(body));
        }
    }

    /** Stops the consumer on the server; the deliveries it held go back to ready, redelivered. */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        if (connection.isOpen())
        {
            final ByteBuf out = connection.alloc().ioBuffer(FrameDescriptor.HEADER_LENGTH + 4);
            FrameDescriptor.begin(out, OpCode.CANCEL, 0, 0);
            out.writeIntLE(tag);
            FrameDescriptor.finish(out, 0);
            connection.call(out, body -> null, 0);
        }
        connection.unregisterConsumer(tag);
    }
}
