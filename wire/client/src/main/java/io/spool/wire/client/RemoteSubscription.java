package io.spool.wire.client;

import io.netty.buffer.ByteBuf;
import io.spool.api.SpoolException;
import io.spool.api.log.HeadersCodec;
import io.spool.api.queue.BatchResult;
import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.MessageListener;
import io.spool.api.queue.QueueSubscription;
import io.spool.api.queue.Receipt;
import io.spool.wire.ErrorDescriptor;
import io.spool.wire.Fields;
import io.spool.wire.FrameDescriptor;
import io.spool.wire.OpCode;
import io.spool.wire.QueueDescriptor.SettleKind;
import io.spool.wire.QueueDescriptor;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A subscription on the server, read as a queue: pull with {@link #receive} and settle by receipt, or push with
 * {@link #consume}. Each call throws the exception the embedded {@code Subscription} would (a stale receipt is a
 * {@code StaleReceiptException}, and so on). Thread-safe.
 */
public final class RemoteSubscription implements QueueSubscription
{
    private final ClientConnection connection;
    private final String name;

    RemoteSubscription(final ClientConnection connection, final String name)
    {
        this.connection = connection;
        this.name = name;
    }

    @Override
    public String name()
    {
        return name;
    }

    /**
     * Receives up to {@code max} deliveries, each locked for the subscription's lock timeout; waits up to
     * {@code waitMillis} on the server when none is ready. Deliveries not settled when the connection closes go back
     * to ready at once.
     */
    @Override
    public List<RemoteDelivery> receive(final int max, final long waitMillis)
    {
        final ByteBuf out = begin(OpCode.RECEIVE);
        Fields.writeString(out, name);
        out.writeIntLE(max);
        out.writeLongLE(waitMillis);
        FrameDescriptor.finish(out, 0);
        return connection.call(out, body ->
        {
            final int count = body.readIntLE();
            final List<RemoteDelivery> deliveries = new ArrayList<>(Math.max(0, count));
            for (int i = 0; i < count; i++)
            {
                deliveries.add(decodeDelivery(name, body));
            }
            return deliveries;
        }, Math.max(0, waitMillis));
    }

    @Override
    public void ack(final Receipt receipt)
    {
        settleOne(SettleKind.ACK, receipt, 0);
    }

    @Override
    public void nack(final Receipt receipt)
    {
        settleOne(SettleKind.NACK, receipt, 0);
    }

    /** Returns the message, due again after {@code delayMillis}. */
    @Override
    public void nack(final Receipt receipt, final long delayMillis)
    {
        settleOne(SettleKind.NACK_DELAYED, receipt, delayMillis);
    }

    @Override
    public void reject(final Receipt receipt)
    {
        settleOne(SettleKind.REJECT, receipt, 0);
    }

    /** Keeps the delivery locked until now plus {@code lockMillis}. */
    @Override
    public void extend(final Receipt receipt, final long lockMillis)
    {
        settleOne(SettleKind.EXTEND, receipt, lockMillis);
    }

    /** Acks each receipt in one request; one refused does not stop the others. */
    @Override
    public BatchResult ack(final List<Receipt> receipts)
    {
        return settleAll(SettleKind.ACK, receipts, 0);
    }

    @Override
    public BatchResult nack(final List<Receipt> receipts)
    {
        return settleAll(SettleKind.NACK, receipts, 0);
    }

    @Override
    public BatchResult nack(final List<Receipt> receipts, final long delayMillis)
    {
        return settleAll(SettleKind.NACK_DELAYED, receipts, delayMillis);
    }

    @Override
    public BatchResult reject(final List<Receipt> receipts)
    {
        return settleAll(SettleKind.REJECT, receipts, 0);
    }

    @Override
    public BatchResult extend(final List<Receipt> receipts, final long lockMillis)
    {
        return settleAll(SettleKind.EXTEND, receipts, lockMillis);
    }

    /**
     * Starts a push consumer: the server sends deliveries as they come, never more unsettled than the prefetch
     * (in auto-ack mode they count as settled when sent). When the connection drops, the server returns every
     * delivery the consumer held to ready, marked redelivered.
     */
    public RemoteQueueConsumer consume(final ConsumerOptions options, final RemoteDeliveryListener listener)
    {
        return consume(options, (MessageListener) listener);
    }

    /**
     * Starts a push consumer whose listener sees each delivery as a {@link io.spool.api.queue.Message} (a
     * {@link RemoteDeliveryView}); the same consumer as {@link #consume(ConsumerOptions, RemoteDeliveryListener)}.
     */
    @Override
    public RemoteQueueConsumer consume(final ConsumerOptions options, final MessageListener listener)
    {
        final RemoteQueueConsumer consumer = new RemoteQueueConsumer(connection, name, options, listener);
        final ByteBuf out = begin(OpCode.CONSUME);
        Fields.writeString(out, name);
        out.writeIntLE(consumer.tag());
        out.writeIntLE(options.prefetch());
        out.writeByte(options.autoAck() ? 1 : 0);
        FrameDescriptor.finish(out, 0);
        try
        {
            connection.call(out, body -> null, 0);
        }
        catch (final RuntimeException ex)
        {
            connection.unregisterConsumer(consumer.tag());
            throw ex;
        }
        return consumer;
    }

    private BatchResult settleAll(final SettleKind kind, final List<Receipt> receipts, final long argumentMillis)
    {
        return BatchResult.of(receipts, settle(kind, receipts, argumentMillis));
    }

    /** Settles many receipts in one request; returns those refused and why, empty when all took effect. */
    private Map<Receipt, SpoolException> settle(final SettleKind kind, final List<Receipt> receipts,
        final long argumentMillis)
    {
        final ByteBuf out = begin(OpCode.SETTLE);
        Fields.writeString(out, name);
        out.writeByte(kind.ordinal());
        out.writeLongLE(argumentMillis);
        out.writeIntLE(receipts.size());
        for (final Receipt receipt : receipts)
        {
            QueueDescriptor.encodeReceipt(out, receipt);
        }
        FrameDescriptor.finish(out, 0);
        return connection.call(out, body ->
        {
            final int failed = body.readIntLE();
            if (failed == 0)
            {
                return Collections.emptyMap();
            }
            final Map<Receipt, SpoolException> failures = new LinkedHashMap<>();
            for (int i = 0; i < failed; i++)
            {
                final Receipt receipt = QueueDescriptor.decodeReceipt(body);
                failures.put(receipt, ErrorDescriptor.decodeRefusal(body));
            }
            return failures;
        }, 0);
    }

    private void settleOne(final SettleKind kind, final Receipt receipt, final long argumentMillis)
    {
        final Map<Receipt, SpoolException> failed = settle(kind, List.of(receipt), argumentMillis);
        if (!failed.isEmpty())
        {
            throw failed.values().iterator().next();
        }
    }

    private ByteBuf begin(final int opCode)
    {
        final ByteBuf out = connection.alloc().ioBuffer(128);
        FrameDescriptor.begin(out, opCode, 0, 0);
        return out;
    }

    static RemoteDelivery decodeDelivery(final String subscription, final ByteBuf body)
    {
        final Receipt receipt = QueueDescriptor.decodeReceipt(body);
        final boolean redelivered = body.readUnsignedByte() != 0;
        final long timestamp = body.readLongLE();
        final int keyLength = body.readIntLE();
        final int headersLength = body.readIntLE();
        final int valueLength = body.readIntLE();
        final byte[] key = read(body, keyLength);
        final byte[] headers = read(body, headersLength);
        final byte[] value = read(body, valueLength);
        return new RemoteDelivery(subscription, receipt.issuer(), receipt.partition(), receipt.offset(),
            receipt.deliveryNumber(),
            redelivered, timestamp, key, headers.length == 0 ? Collections.emptyMap() :
            HeadersCodec.decode(new UnsafeBuffer(headers), 0, headers.length), value);
    }

    private static byte[] read(final ByteBuf body, final int length)
    {
        if (length < 0)
        {
            return null;
        }
        final byte[] bytes = new byte[length];
        body.readBytes(bytes);
        return bytes;
    }
}
