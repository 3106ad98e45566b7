package io.spool.queue;

import io.spool.api.SpoolException;
import io.spool.api.log.RecordView;
import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.MessageListener;
import io.spool.api.queue.PushConsumer;
import io.spool.api.InvalidRequestException;
import io.spool.api.queue.Receipt;
import io.spool.queue.internal.delivery.AckRun;
import io.spool.queue.internal.delivery.DeliveryHandoff;
import io.spool.queue.internal.delivery.IdleBackoff;
import io.spool.queue.internal.delivery.LookBeforePark;
import io.spool.queue.internal.delivery.PartitionWorker;
import io.spool.queue.internal.delivery.RecordFinder;
import io.spool.queue.internal.delivery.SettlementEntry;
import io.spool.queue.internal.delivery.SubscriptionAgent;
import io.spool.queue.internal.state.Settlement;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.ManyToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * A push consumer of one subscription: its own thread takes the deliveries the subscription's agent handed it (never
 * more unacked than the prefetch) as runs of consecutive offsets, reads each run's records from the log in order,
 * views each in one reused {@link Delivery} and hands it to the listener. Settlements travel back to the agent
 * through a lock-free ring, so acking allocates nothing and takes no lock; acks the consumer's own thread makes in
 * delivery order go as one run ({@link AckRun}), a ring entry per run and an ordered store per ack. A consumer out of
 * deliveries runs the subscription's pass on its own thread, unless a pass is running: that applies its acks and
 * hands it its next deliveries without waiting for the agent's thread ({@link SubscriptionAgent}). Acks made on other
 * threads wake a sleeping agent once the consumer runs low on deliveries.
 * <p>
 * A consumer settles only the deliveries it was handed: a receipt of another consumer's delivery, or of another
 * subscription, is refused ({@link DeliveryListener#onSettlementRefused}) and changes nothing, as RabbitMQ refuses a
 * delivery tag of another channel. {@link Subscription#ack(Receipt)} and its kin settle any delivery of the
 * subscription by its receipt, whoever holds it, as SQS does.
 * <p>
 * Closing the consumer returns every delivery it still holds to the subscription, marked redelivered.
 * <p>
 * Thread-safe: settle from any thread.
 */
public final class QueueConsumer implements PushConsumer
{
    private static final int SETTLEMENT_RING_BYTES = 128 * 1024;

    private final int id;
    private final ConsumerOptions options;
    /** Told of refused settlements and expired locks. */
    private final MessageListener listener;
    /** The listener as the record loop calls it: typed deliveries need no bridge on the hot path. */
    private final DeliveryListener deliveries;
    private final SubscriptionAgent agent;
    public final DeliveryHandoff handoff;
    public final ManyToOneRingBuffer settlements;
    public final AckRun ackRun = new AckRun();
    /** Things to tell the listener, run on the consumer thread between deliveries. */
    private final ConcurrentLinkedQueue<Runnable> notices = new ConcurrentLinkedQueue<>();
    /** One reader per partition and the one delivery the listener sees; owned by the consumer thread. */
    private final RecordFinder[] finders;
    private final Delivery delivery = Delivery.viewingTheLog();
    private final DeliveryHandoff.RunHandler deliverRun = this::deliverRun;
    /** Below this many deliveries waiting, the consumer wakes a sleeping agent for more. */
    private final int lowWater;
    private final Thread thread;
    private volatile boolean closed;
    /** True while the consumer thread parks, so the agent unparks it only then. */
    private volatile boolean idle;
    private final LookBeforePark lookBeforePark = new LookBeforePark();
    private final IdleBackoff idleBackoff = new IdleBackoff();

    QueueConsumer(final int id, final ConsumerOptions options, final MessageListener listener,
        final SubscriptionAgent agent)
    {
        this.id = id;
        this.options = options;
        this.listener = listener;
        this.deliveries = listener instanceof DeliveryListener typed ? typed : listener::onMessage;
        this.agent = agent;
        this.handoff = new DeliveryHandoff(options.prefetch());
        this.lowWater = options.prefetch() / 2;
        final PartitionWorker[] partitions = agent.partitions();
        this.finders = new RecordFinder[partitions.length];
        for (int p = 0; p < partitions.length; p++)
        {
            finders[p] = new RecordFinder(partitions[p].log());
        }
        this.settlements = new ManyToOneRingBuffer(new UnsafeBuffer(
            ByteBuffer.allocateDirect(SETTLEMENT_RING_BYTES + RingBufferDescriptor.TRAILER_LENGTH)));
        this.thread = new Thread(this::run, "spool-consumer-" + agent.name() + "-" + id);
        this.thread.setDaemon(true);
    }

    public void start()
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
        settle(Settlement.ACK, receipt, 0);
    }

    /** Returns the delivery to the subscription, to be delivered again (redelivered). */
    public void nack(final Delivery delivery)
    {
        settle(Settlement.NACK, delivery.partition(), delivery.offset(), delivery.deliveryNumber(), 0);
    }

    public void nack(final Receipt receipt)
    {
        settle(Settlement.NACK, receipt, 0);
    }

    /** Returns the delivery to the subscription, due again after {@code delayMillis}. */
    public void nack(final Delivery delivery, final long delayMillis)
    {
        settle(Settlement.NACK_DELAYED, delivery.partition(), delivery.offset(), delivery.deliveryNumber(), delayMillis);
    }

    /** Returns a delivery named by its receipt, due again after {@code delayMillis}. */
    public void nack(final Receipt receipt, final long delayMillis)
    {
        settle(Settlement.NACK_DELAYED, receipt, delayMillis);
    }

    /** Moves the lock deadline of a delivery named by its receipt to now plus {@code lockMillis}. */
    public void extend(final Receipt receipt, final long lockMillis)
    {
        settle(Settlement.EXTEND, receipt, lockMillis);
    }

    /** Dead-letters the delivery with reason rejected. */
    public void reject(final Delivery delivery)
    {
        settle(Settlement.REJECT, delivery.partition(), delivery.offset(), delivery.deliveryNumber(), 0);
    }

    public void reject(final Receipt receipt)
    {
        settle(Settlement.REJECT, receipt, 0);
    }

    /** Moves the delivery's lock deadline to now plus {@code lockMillis}. */
    public void extend(final Delivery delivery, final long lockMillis)
    {
        settle(Settlement.EXTEND, delivery.partition(), delivery.offset(), delivery.deliveryNumber(), lockMillis);
    }

    /** A receipt another subscription issued is refused here: it names nothing this subscription holds. */
    private void settle(final Settlement settlement, final Receipt receipt, final long argument)
    {
        if (receipt.issuer() != agent.issuer())
        {
            refused(receipt, agent.foreignReceipt(settlement, receipt));
            return;
        }
        settle(settlement, receipt.partition(), receipt.offset(), receipt.deliveryNumber(), argument);
    }

    private void settle(final Settlement settlement, final int partition, final long offset, final int deliveryNumber,
        final long argument)
    {
        if (closed)
        {
            throw new InvalidRequestException("consumer " + id + " of subscription " + agent.name() +
                " is closed; its deliveries were released");
        }
        if (Thread.currentThread() != thread)
        {
            send(settlement, partition, offset, deliveryNumber, argument);
        }
        else if (settlement == Settlement.ACK)
        {
            ackInRun(partition, offset, deliveryNumber);
        }
        else
        {
            endAckRun();
            send(settlement, partition, offset, deliveryNumber, argument);
        }
    }

    /** Consumer thread: an ack joins the open run, or ends it and starts the next. */
    private void ackInRun(final int partition, final long offset, final int deliveryNumber)
    {
        if (!ackRun.extend(partition, offset, deliveryNumber))
        {
            endAckRun();
            final int number = ackRun.open(partition, offset, deliveryNumber);
            final int index = claim(AckRun.OPENED, SettlementEntry.LENGTH);
            SettlementEntry.write(settlements.buffer(), index, partition, deliveryNumber, offset, number);
            settlements.commit(index);
            ackRun.publish();
        }
    }

    /** Consumer thread: the open run of acks, if any, ends before anything else is settled. */
    private void endAckRun()
    {
        if (ackRun.isOpen())
        {
            final long numberAndCount = ackRun.end();
            final int index = claim(AckRun.ENDED, AckRun.ENDED_LENGTH);
            settlements.buffer().putLong(index, numberAndCount);
            settlements.commit(index);
        }
    }

    /** Claims ring space for an entry, waking the agent to make room while the ring is full. */
    private int claim(final int code, final int length)
    {
        int index;
        while ((index = settlements.tryClaim(code, length)) < 0)
        {
            agent.wakeNow();
            LockSupport.parkNanos(10_000);
        }
        return index;
    }

    /** Writes a settlement straight into the ring: no copy, no allocation. */
    private void send(final Settlement settlement, final int partition, final long offset, final int deliveryNumber,
        final long argument)
    {
        final int index = claim(settlement.code(), SettlementEntry.LENGTH);
        SettlementEntry.write(settlements.buffer(), index, partition, deliveryNumber, offset, argument);
        settlements.commit(index);
        if (settlement != Settlement.ACK)
        {
            agent.wake();
        }
        else
        {
            wakeAgentIfRunningLow();
        }
    }

    /**
     * An ack from another thread only frees credit, which the consumer needs once its waiting deliveries run low:
     * waking a sleeping agent for each ack would make it run a pass (and a journal write) per message. Until then acks
     * collect in the ring, and the agent, which sleeps at most a millisecond, applies them in one pass. Acks and
     * auto-acked deliveries on the consumer's own thread wake nobody: the consumer runs the pass itself once it runs
     * out of deliveries.
     */
    private void wakeAgentIfRunningLow()
    {
        if (handoff.available() <= lowWater)
        {
            agent.wake();
        }
    }

    /** Agent thread: a settlement of this consumer was refused; the consumer thread reports it. */
    public void refused(final Receipt receipt, final SpoolException error)
    {
        notices.add(() -> listener.onSettlementRefused(receipt, error));
        LockSupport.unpark(thread);
    }

    /** Agent thread: the consumer held a delivery past its lock; it is no longer the consumer's. */
    public void lockExpired(final Receipt receipt)
    {
        notices.add(() -> listener.onLockExpired(receipt));
        LockSupport.unpark(thread);
    }

    private void run()
    {
        try
        {
            while (!closed)
            {
                final Runnable notice = notices.poll();
                if (notice != null)
                {
                    notice.run();
                    idleBackoff.workDone();
                }
                else if (handoff.take(deliverRun))
                {
                    lookBeforePark.workDone();
                    idleBackoff.workDone();
                }
                else if (agent.passOnConsumerThread() > 0 && !handoff.isEmpty())
                {
                    lookBeforePark.workDone();
                    idleBackoff.workDone();
                }
                else if (!lookBeforePark.lookAgain())
                {
                    idle = true;
                    if (handoff.isEmpty() && notices.isEmpty() && !closed)
                    {
                        LockSupport.parkNanos(this, idleBackoff.parkNanos());
                    }
                    idle = false;
                }
            }
        }
        finally
        {
            endAckRun();
            for (final RecordFinder finder : finders)
            {
                finder.close();
            }
        }
    }

    /**
     * Consumer thread: reads a handed-over run's records from the log in order, as a stream poll does, and gives each
     * to the listener, until the consumer closes. The record loop is this method's own, and the listener's call sits
     * in it rather than in a method of its own, so the JIT compiles the delivery into the loop: a poll's handler call
     * per record stayed a virtual call whenever the reader's shared poll loop was compiled before this, and a
     * per-message method of the consumer's own, compiled first with the listener in it, stayed a call per message in
     * some four-consumer runs ("already compiled into a big method").
     */
    private void deliverRun(final int partition, final long firstOffset, final int count, final int deliveryNumber,
        final long firstDeliveryTime)
    {
        delivery.names(agent.name(), agent.issuer(), partition, deliveryNumber, firstDeliveryTime);
        final RecordFinder finder = finders[partition];
        final long end = firstOffset + count;
        for (long offset = firstOffset; offset < end && !closed; offset++)
        {
            final RecordView record = finder.find(offset);
            handoff.tookOne();
            if (record == null)
            {
                // Retention removed the record since it was acquired: there is nothing to deliver, so it is done.
                if (!options.autoAck())
                {
                    ackInRun(partition, offset, deliveryNumber);
                }
                continue;
            }
            delivery.views(record);
            try
            {
                deliveries.onDelivery(delivery, this);
            }
            catch (final RuntimeException ex)
            {
                if (!options.autoAck() && !closed)
                {
                    nack(delivery);
                }
            }
        }
    }

    /** Agent thread, after the journal commit: the staged deliveries become the consumer's to take. */
    public void handOverStaged()
    {
        if (!handoff.hasStaged())
        {
            return;
        }
        handoff.publish();
        if (idle)
        {
            LockSupport.unpark(thread);
        }
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
        if (Thread.currentThread() == thread)
        {
            endAckRun();
        }
        else
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
