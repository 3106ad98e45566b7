package io.spool.wire.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.spool.Spool;
import io.spool.api.SpoolException;
import io.spool.api.queue.BatchResult;
import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.QueueException;
import io.spool.api.queue.Receipt;
import io.spool.queue.Delivery;
import io.spool.queue.DeliveryListener;
import io.spool.queue.QueueConsumer;
import io.spool.queue.Subscription;
import io.spool.wire.ErrorDescriptor;
import io.spool.wire.Fields;
import io.spool.wire.FrameDescriptor;
import io.spool.wire.OpCode;
import io.spool.wire.QueueDescriptor.SettleKind;
import io.spool.wire.QueueDescriptor;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The queue operations of one connection: pull receive and settle, push consumers and their deliveries. When the
 * connection closes, its push consumers are closed and the deliveries it pulled and did not settle are nacked, so
 * everything it held is ready again at once, marked redelivered, instead of after the lock timeout.
 * <p>
 * Design note: receive, pull settlements and consumer start and stop wait on the subscription's agent, so they run
 * on the server's queue executor, never on the event loop. Push settlements (every kind, delays and lock extensions
 * included) go to the consumer's lock-free ring straight from the event loop. Deliveries are written by each
 * consumer's own thread, which waits while the channel is not writable: a slow reader holds back its own consumer,
 * not the server.
 * <p>
 * Not thread-safe except where noted: the consumer table is the event loop's; the pulled receipts are shared with
 * the queue executor through concurrent sets.
 */
final class QueueSession
{
    private static final Logger LOGGER = LoggerFactory.getLogger(QueueSession.class);

    private final Channel channel;
    private final Spool spool;
    private final Executor executor;
    private final HeldPartitions held;
    private final Int2ObjectHashMap<QueueConsumer> consumers = new Int2ObjectHashMap<>();
    private final Map<Subscription, Set<Receipt>> pulled = new ConcurrentHashMap<>();
    private final org.agrona.collections.IntHashSet reservedTags = new org.agrona.collections.IntHashSet();
    /** Settlements for consumers whose start is still in progress: their deliveries can come before it ends. */
    private final Int2ObjectHashMap<List<EarlySettlement>> early = new Int2ObjectHashMap<>();
    private volatile boolean closed;

    QueueSession(final Channel channel, final Spool spool, final Executor executor, final HeldPartitions held)
    {
        this.channel = channel;
        this.spool = spool;
        this.executor = executor;
        this.held = held;
    }

    /**
     * A node-local subscription reads every partition of its topic, so a cluster node takes one only of a topic it
     * holds every partition of (a replicated subscription is the cluster client's).
     *
     * @throws io.spool.api.InvalidRequestException naming the first partition the node holds no copy of.
     */
    static void requireAllHeld(final Spool spool, final HeldPartitions held, final String topic)
    {
        held.requireAllHeld(topic, spool.streams().topics().partitionCount(topic));
    }

    static boolean handles(final int opCode)
    {
        return opCode == OpCode.RECEIVE || opCode == OpCode.SETTLE || opCode == OpCode.CONSUME ||
            opCode == OpCode.CONSUMER_SETTLE || opCode == OpCode.CANCEL;
    }

    void handle(final int opCode, final long correlationId, final ByteBuf body)
    {
        switch (opCode)
        {
            case OpCode.RECEIVE:
                receive(correlationId, body);
                break;
            case OpCode.SETTLE:
                settle(correlationId, body);
                break;
            case OpCode.CONSUME:
                consume(correlationId, body);
                break;
            case OpCode.CONSUMER_SETTLE:
                consumerSettle(body);
                break;
            default:
                cancel(correlationId, body);
                break;
        }
    }

    private void receive(final long correlationId, final ByteBuf body)
    {
        final Subscription subscription = spool.subscription(Fields.readString(body));
        final int max = body.readIntLE();
        final long waitMillis = body.readLongLE();
        Fields.expectEnd(body);
        answer(OpCode.RECEIVE, correlationId, out ->
        {
            requireAllHeld(spool, held, subscription.topic());
            final List<Delivery> deliveries = subscription.receive(max, waitMillis);
            final Set<Receipt> held = pulled.computeIfAbsent(subscription, ignored -> ConcurrentHashMap.newKeySet());
            out.writeIntLE(deliveries.size());
            for (final Delivery delivery : deliveries)
            {
                held.add(delivery.receipt());
                encode(out, delivery);
            }
            if (closed)
            {
                releasePulled();
            }
        });
    }

    private void settle(final long correlationId, final ByteBuf body)
    {
        final Subscription subscription = spool.subscription(Fields.readString(body));
        final SettleKind kind = SettleKind.of(body.readUnsignedByte());
        final long argument = body.readLongLE();
        final List<Receipt> receipts = readReceipts(body);
        answer(OpCode.SETTLE, correlationId, out ->
        {
            final BatchResult result;
            switch (kind)
            {
                case ACK:
                    result = subscription.ack(receipts);
                    break;
                case NACK:
                    result = subscription.nack(receipts);
                    break;
                case NACK_DELAYED:
                    result = subscription.nack(receipts, argument);
                    break;
                case REJECT:
                    result = subscription.reject(receipts);
                    break;
                default:
                    result = subscription.extend(receipts, argument);
                    break;
            }
            if (kind != SettleKind.EXTEND)
            {
                final Set<Receipt> held = pulled.get(subscription);
                if (held != null)
                {
                    held.removeAll(result.succeeded());
                }
            }
            out.writeIntLE(result.failed().size());
            for (final Map.Entry<Receipt, SpoolException> failure : result.failed().entrySet())
            {
                final Receipt receipt = failure.getKey();
                QueueDescriptor.encodeReceipt(out, receipt);
                ErrorDescriptor.encodeBody(out, failure.getValue());
            }
        });
    }

    private void consume(final long correlationId, final ByteBuf body)
    {
        final Subscription subscription = spool.subscription(Fields.readString(body));
        final int tag = body.readIntLE();
        final int prefetch = body.readIntLE();
        final boolean autoAck = body.readUnsignedByte() != 0;
        Fields.expectEnd(body);
        final ConsumerOptions options = autoAck ? ConsumerOptions.autoAck(prefetch) : ConsumerOptions.prefetch(prefetch);
        if (!reservedTags.add(tag))
        {
            throw new io.spool.api.InvalidRequestException("consumer tag " + tag + " is taken on this connection");
        }
        answer(OpCode.CONSUME, correlationId, out ->
        {
            try
            {
                requireAllHeld(spool, held, subscription.topic());
                final QueueConsumer consumer = subscription.consume(options, new Pusher(tag));
                channel.eventLoop().execute(() -> adopt(tag, consumer));
            }
            catch (final RuntimeException ex)
            {
                channel.eventLoop().execute(() ->
                {
                    reservedTags.remove(tag);
                    early.remove(tag);
                });
                throw ex;
            }
        });
    }

    /** Event loop: a started consumer joins the table, or is closed at once if the connection went meanwhile. */
    private void adopt(final int tag, final QueueConsumer consumer)
    {
        if (closed)
        {
            executor.execute(consumer::close);
            return;
        }
        consumers.put(tag, consumer);
        final List<EarlySettlement> settlements = early.remove(tag);
        if (settlements != null)
        {
            settlements.forEach(settlement ->
                settle(consumer, settlement.kind(), settlement.receipt(), settlement.argument()));
        }
    }

    private void consumerSettle(final ByteBuf body)
    {
        final int tag = body.readIntLE();
        final SettleKind kind = SettleKind.of(body.readUnsignedByte());
        final long argument = body.readLongLE();
        final int count = body.readIntLE();
        if (count < 0 || (long)count * QueueDescriptor.RECEIPT_LENGTH != body.readableBytes())
        {
            throw new IndexOutOfBoundsException("receipt count " + count + " disagrees with the frame length");
        }
        final QueueConsumer consumer = consumers.get(tag);
        if (consumer == null && !reservedTags.contains(tag))
        {
            throw new io.spool.api.InvalidRequestException("no consumer with tag " + tag + " on this connection");
        }
        for (int i = 0; i < count; i++)
        {
            final Receipt receipt = QueueDescriptor.decodeReceipt(body);
            if (consumer == null)
            {
                early.computeIfAbsent(tag, ignored -> new ArrayList<>())
                    .add(new EarlySettlement(kind, receipt, argument));
            }
            else
            {
                settle(consumer, kind, receipt, argument);
            }
        }
    }

    /** Hands a push settlement to the consumer's ring; the engine's refusal comes back as SETTLEMENT_REFUSED. */
    private static void settle(final QueueConsumer consumer, final SettleKind kind, final Receipt receipt,
        final long argument)
    {
        switch (kind)
        {
            case ACK:
                consumer.ack(receipt);
                break;
            case NACK:
                consumer.nack(receipt);
                break;
            case NACK_DELAYED:
                consumer.nack(receipt, argument);
                break;
            case REJECT:
                consumer.reject(receipt);
                break;
            default:
                consumer.extend(receipt, argument);
                break;
        }
    }

    private void cancel(final long correlationId, final ByteBuf body)
    {
        final int tag = body.readIntLE();
        Fields.expectEnd(body);
        final QueueConsumer consumer = consumers.remove(tag);
        if (consumer == null)
        {
            throw new io.spool.api.InvalidRequestException("no consumer with tag " + tag + " on this connection");
        }
        reservedTags.remove(tag);
        answer(OpCode.CANCEL, correlationId, out -> consumer.close());
    }

    private static List<Receipt> readReceipts(final ByteBuf body)
    {
        final int count = body.readIntLE();
        if (count < 1 || (long)count * QueueDescriptor.RECEIPT_LENGTH != body.readableBytes())
        {
            throw new IndexOutOfBoundsException("receipt count " + count + " disagrees with the frame length");
        }
        final List<Receipt> receipts = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            receipts.add(QueueDescriptor.decodeReceipt(body));
        }
        return receipts;
    }

    private void answer(final int opCode, final long correlationId, final java.util.function.Consumer<ByteBuf> work)
    {
        executor.execute(() ->
            channel.writeAndFlush(AdminOperations.respond(channel, opCode, correlationId, work), channel.voidPromise()));
    }

    private static void encode(final ByteBuf out, final Delivery delivery)
    {
        QueueDescriptor.encodeDelivery(out, delivery.issuer(), delivery.partition(), delivery.offset(),
            delivery.deliveryNumber(),
            delivery.redelivered(), delivery.timestamp(), delivery.buffer(), delivery.keyOffset(), delivery.keyLength(),
            delivery.headersOffset(), delivery.headersLength(), delivery.valueOffset(), delivery.valueLength());
    }

    /**
     * Event loop, when the connection closed: every consumer is closed and every unsettled pulled delivery nacked,
     * on the queue executor.
     */
    void close()
    {
        closed = true;
        final List<QueueConsumer> open = new ArrayList<>(consumers.values());
        consumers.clear();
        executor.execute(() ->
        {
            open.forEach(QueueConsumer::close);
            releasePulled();
        });
    }

    private void releasePulled()
    {
        for (final Map.Entry<Subscription, Set<Receipt>> entry : pulled.entrySet())
        {
            final List<Receipt> receipts = new ArrayList<>(entry.getValue());
            entry.getValue().removeAll(receipts);
            if (!receipts.isEmpty())
            {
                release(entry.getKey(), receipts);
            }
        }
    }

    /**
     * A subscription deleted (or its engine closed) while this connection held its deliveries has no locks left to
     * release, and must not keep the other subscriptions' deliveries locked.
     */
    private static void release(final Subscription subscription, final List<Receipt> receipts)
    {
        try
        {
            subscription.nack(receipts);
        }
        catch (final QueueException ex)
        {
            LOGGER.debug("not releasing {} deliveries of {}: {}", receipts.size(), subscription.name(),
                ex.getMessage());
        }
    }

    /** A push settlement that came before its consumer's start finished. */
    private record EarlySettlement(SettleKind kind, Receipt receipt, long argument)
    {
    }

    /**
     * Encodes a consumer's deliveries on the consumer's own thread and hands them to the event loop through a
     * one-to-one queue; the event loop writes all that are queued and flushes once. A full queue or an unwritable
     * channel makes the consumer thread wait: a slow reader holds back only its own consumer.
     */
    private final class Pusher implements DeliveryListener
    {
        private static final int QUEUE_CAPACITY = 1024;

        private final int tag;
        private final OneToOneConcurrentArrayQueue<ByteBuf> outbox = new OneToOneConcurrentArrayQueue<>(QUEUE_CAPACITY);
        private final AtomicBoolean drainScheduled = new AtomicBoolean();
        private final Runnable drainTask = this::drain;

        Pusher(final int tag)
        {
            this.tag = tag;
        }

        @Override
        public void onDelivery(final Delivery delivery, final QueueConsumer consumer)
        {
            final ByteBuf out = channel.alloc().ioBuffer(FrameDescriptor.HEADER_LENGTH +
                QueueDescriptor.DELIVERY_FIXED_LENGTH + delivery.valueOffset() - delivery.keyOffset() +
                Math.max(0, delivery.valueLength()));
            final int start = FrameDescriptor.begin(out, OpCode.DELIVERY, 0, tag);
            encode(out, delivery);
            FrameDescriptor.finish(out, start);
            hand(out);
        }

        @Override
        public void onSettlementRefused(final Receipt receipt, final SpoolException error)
        {
            final ByteBuf out = channel.alloc().ioBuffer(256);
            final int start = FrameDescriptor.begin(out, OpCode.SETTLEMENT_REFUSED, 0, tag);
            QueueDescriptor.encodeReceipt(out, receipt);
            ErrorDescriptor.encodeBody(out, error);
            FrameDescriptor.finish(out, start);
            hand(out);
        }

        @Override
        public void onLockExpired(final Receipt receipt)
        {
            final ByteBuf out = channel.alloc().ioBuffer(FrameDescriptor.HEADER_LENGTH + QueueDescriptor.RECEIPT_LENGTH);
            final int start = FrameDescriptor.begin(out, OpCode.LOCK_EXPIRED, 0, tag);
            QueueDescriptor.encodeReceipt(out, receipt);
            FrameDescriptor.finish(out, start);
            hand(out);
        }

        private void hand(final ByteBuf frame)
        {
            while (!channel.isWritable() && channel.isActive())
            {
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
            }
            while (!outbox.offer(frame))
            {
                if (!channel.isActive())
                {
                    frame.release();
                    return;
                }
                scheduleDrain();
                LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
            }
            scheduleDrain();
        }

        private void scheduleDrain()
        {
            if (drainScheduled.compareAndSet(false, true))
            {
                channel.eventLoop().execute(drainTask);
            }
        }

        private void drain()
        {
            drainScheduled.set(false);
            ByteBuf frame;
            boolean wrote = false;
            while ((frame = outbox.poll()) != null)
            {
                channel.write(frame, channel.voidPromise());
                wrote = true;
            }
            if (wrote)
            {
                channel.flush();
            }
        }
    }
}
