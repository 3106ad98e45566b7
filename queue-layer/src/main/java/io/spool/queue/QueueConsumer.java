package io.spool.queue;

import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A push consumer of one subscription: its own thread takes deliveries the subscription's agent pushed into its
 * buffer (never more unacked than the prefetch) and hands them to the listener. Settlements travel back to the
 * agent through a lock-free ring, so acking allocates nothing and takes no lock.
 * <p>
 * Closing the consumer returns every delivery it still holds to the subscription, marked redelivered.
 * <p>
 * Thread-safe: settle from any thread.
 */
public final class QueueConsumer implements AutoCloseable
{
    static final int SETTLEMENT_LENGTH = 24;
    private static final int SETTLEMENT_RING_BYTES = 128 * 1024;

    private final int id;
    private final ConsumerOptions options;
    private final DeliveryListener listener;
    private final SubscriptionAgent agent;
    final OneToOneConcurrentArrayQueue<Delivery> inbox;
    final OneToOneConcurrentArrayQueue<Delivery> recycled;
    final ManyToOneRingBuffer settlements;
    /** Things to tell the listener, run on the consumer thread between deliveries. */
    private final ConcurrentLinkedQueue<Runnable> notices = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<UnsafeBuffer> scratch = ThreadLocal.withInitial(
        () -> new UnsafeBuffer(new byte[SETTLEMENT_LENGTH]));
    private final Thread thread;
    private volatile boolean closed;
    /** Deliveries acquired this pass, handed over once the pass is journaled; owned by the agent thread. */
    private final java.util.ArrayList<Delivery> staged = new java.util.ArrayList<>();

    QueueConsumer(final int id, final ConsumerOptions options, final DeliveryListener listener,
        final SubscriptionAgent agent)
    {
        this.id = id;
        this.options = options;
        this.listener = listener;
        this.agent = agent;
        this.inbox = new OneToOneConcurrentArrayQueue<>(Math.max(2, options.prefetch()));
        this.recycled = new OneToOneConcurrentArrayQueue<>(Math.max(2, options.prefetch()));
        this.settlements = new ManyToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(SETTLEMENT_RING_BYTES + RingBufferDescriptor.TRAILER_LENGTH)));
        this.thread = new Thread(this::run, "spool-consumer-" + agent.name() + "-" + id);
        this.thread.setDaemon(true);
    }

    void start()
    {
        thread.start();
    }

    public int id()
    {
        return id;
    }

    public ConsumerOptions options()
    {
        return options;
    }

    public String subscription()
    {
        return agent.name();
    }

    public boolean isClosed()
    {
        return closed;
    }

    /** Acks a delivery; a no-op in auto-ack mode, where it is already settled. */
    public void ack(final Delivery delivery)
    {
        if (!options.autoAck())
        {
            settle(Settlement.ACK, delivery.partition(), delivery.offset(), delivery.deliveryNumber(), 0);
        }
    }

    public void ack(final Receipt receipt)
    {
        settle(Settlement.ACK, receipt.partition(), receipt.offset(), receipt.deliveryNumber(), 0);
    }

    /** Returns the delivery to the subscription, to be delivered again (redelivered). */
    public void nack(final Delivery delivery)
    {
        settle(Settlement.NACK, delivery.partition(), delivery.offset(), delivery.deliveryNumber(), 0);
    }

    public void nack(final Receipt receipt)
    {
        settle(Settlement.NACK, receipt.partition(), receipt.offset(), receipt.deliveryNumber(), 0);
    }

    /** Returns the delivery to the subscription, due again after {@code delayMillis}. */
    public void nack(final Delivery delivery, final long delayMillis)
    {
        settle(Settlement.NACK_DELAYED, delivery.partition(), delivery.offset(), delivery.deliveryNumber(), delayMillis);
    }

    /** Returns a delivery named by its receipt, due again after {@code delayMillis}. */
    public void nack(final Receipt receipt, final long delayMillis)
    {
        settle(Settlement.NACK_DELAYED, receipt.partition(), receipt.offset(), receipt.deliveryNumber(), delayMillis);
    }

    /** Moves the lock deadline of a delivery named by its receipt to now plus {@code lockMillis}. */
    public void extend(final Receipt receipt, final long lockMillis)
    {
        settle(Settlement.EXTEND, receipt.partition(), receipt.offset(), receipt.deliveryNumber(), lockMillis);
    }

    /** Dead-letters the delivery with reason rejected. */
    public void reject(final Delivery delivery)
    {
        settle(Settlement.REJECT, delivery.partition(), delivery.offset(), delivery.deliveryNumber(), 0);
    }

    public void reject(final Receipt receipt)
    {
        settle(Settlement.REJECT, receipt.partition(), receipt.offset(), receipt.deliveryNumber(), 0);
    }

    /** Moves the delivery's lock deadline to now plus {@code lockMillis}. */
    public void extend(final Delivery delivery, final long lockMillis)
    {
        settle(Settlement.EXTEND, delivery.partition(), delivery.offset(), delivery.deliveryNumber(), lockMillis);
    }

    private void settle(final Settlement settlement, final int partition, final long offset, final int deliveryNumber,
        final long argument)
    {
        if (closed)
        {
            throw new InvalidRequestException("consumer " + id + " of subscription " + agent.name() +
                " is closed; its deliveries were released");
        }
        final UnsafeBuffer message = scratch.get();
        message.putInt(0, partition);
        message.putInt(4, deliveryNumber);
        message.putLong(8, offset);
        message.putLong(16, argument);
        while (!settlements.write(settlement.code(), message, 0, SETTLEMENT_LENGTH))
        {
            agent.wake();
            LockSupport.parkNanos(10_000);
        }
        agent.wake();
    }

    /** Agent thread: a settlement of this consumer was refused; the consumer thread reports it. */
    void refused(final Receipt receipt, final QueueException error)
    {
        notices.add(() -> listener.onSettlementRefused(receipt, error));
        LockSupport.unpark(thread);
    }

    /** Agent thread: the consumer held a delivery past its lock; it is no longer the consumer's. */
    void lockExpired(final Receipt receipt)
    {
        notices.add(() -> listener.onLockExpired(receipt));
        LockSupport.unpark(thread);
    }

    private void run()
    {
        while (!closed)
        {
            final Runnable notice = notices.poll();
            if (notice != null)
            {
                notice.run();
                continue;
            }
            final Delivery delivery = inbox.poll();
            if (delivery == null)
            {
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(1));
                continue;
            }
            try
            {
                listener.onDelivery(delivery, this);
            }
            catch (final RuntimeException ex)
            {
                if (!options.autoAck())
                {
                    nack(delivery);
                }
            }
            finally
            {
                recycled.offer(delivery);
            }
            agent.wake();
        }
    }

    void stage(final Delivery delivery)
    {
        staged.add(delivery);
    }

    int stagedCount()
    {
        return staged.size();
    }

    /** Agent thread, after the journal commit: the staged deliveries go to the consumer's buffer. */
    void handOverStaged()
    {
        if (staged.isEmpty())
        {
            return;
        }
        for (int i = 0; i < staged.size(); i++)
        {
            inbox.offer(staged.get(i));
        }
        staged.clear();
        LockSupport.unpark(thread);
    }

    /**
     * Stops the consumer: its thread ends, and every delivery it held goes back to the subscription, redelivered.
     */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        LockSupport.unpark(thread);
        if (Thread.currentThread() != thread)
        {
            try
            {
                thread.join(TimeUnit.SECONDS.toMillis(10));
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        agent.removeConsumer(this);
    }
}
