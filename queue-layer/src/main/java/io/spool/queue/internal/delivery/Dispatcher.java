package io.spool.queue.internal.delivery;

import io.spool.queue.Delivery;
import io.spool.queue.DeliveryHandler;
import io.spool.queue.QueueConsumer;
import io.spool.queue.internal.state.ReceiptCheck;
import io.spool.queue.internal.state.SubscriptionPartitionState;

import org.agrona.collections.IntArrayList;
import org.agrona.collections.LongArrayList;

import java.util.List;

/**
 * Hands a subscription's ready messages out, taking its partitions in turn: pushes them to push consumers within
 * their credit, and fills receives with them. Not thread-safe: owned by the subscription's agent thread.
 */
final class Dispatcher
{
    /**
     * Consumers with credit take turns, so ready messages spread over them as RabbitMQ's round-robin does, even when
     * one consumer's prefetch alone could take them all: a turn is an even share of the ready messages, at least
     * {@link #MIN_TURN} and at most {@link #MAX_TURN}. A few ready messages go out 32 at a time; a backlog goes out in
     * long runs, each of which a consumer reads in order and acks as one run (fixed turns of 32 cut every backlog
     * into short runs, each paying a consumer's per-run costs). A
     * consumer served alone takes the pass's whole push in one turn: there is nobody to share with, and each turn is
     * an acquire of its own.
     */
    private static final int MIN_TURN = 32;
    private static final int MAX_TURN = 1024;
    /** Pushes per pass are bounded so settlements and timers are not starved by a deep backlog. */
    private static final int PUSH_PER_PASS = 8192;

    private final PartitionWorker[] partitions;
    private final boolean singleActiveConsumer;
    /** The partition state the running acquire takes from. */
    private SubscriptionPartitionState acquiringFrom;
    private final LongArrayList acquiredOffsets = new LongArrayList();
    private final IntArrayList acquiredDeliveries = new IntArrayList();
    private final IntArrayList acquiredPartitions = new IntArrayList();
    private final DeliveryHandler collect = (offset, deliveryNumber) ->
    {
        acquiredOffsets.addLong(offset);
        acquiredDeliveries.addInt(deliveryNumber);
        acquiredPartitions.addInt(acquiringFrom.partition());
    };
    private final HandoffStager stage = new HandoffStager();
    private int nextPartition;
    private int nextConsumer;

    Dispatcher(final PartitionWorker[] partitions, final boolean singleActiveConsumer)
    {
        this.partitions = partitions;
        this.singleActiveConsumer = singleActiveConsumer;
    }

    /**
     * Hands deliveries to push consumers within their credit, consumers taken in turn so each gets its share; with a
     * single active consumer, only to the longest-standing one, the others waiting until it goes. Its released
     * deliveries are then the lowest offsets ready, so the next consumer takes over in offset order.
     */
    int push(final List<QueueConsumer> consumers)
    {
        int pushed = 0;
        final int count = singleActiveConsumer ? Math.min(1, consumers.size()) : consumers.size();
        final int turn = count <= 1 ? PUSH_PER_PASS : evenTurn(count);
        boolean progress = count > 0;
        while (progress && pushed < PUSH_PER_PASS)
        {
            progress = false;
            for (int i = 0; i < count; i++)
            {
                final QueueConsumer consumer = consumers.get((nextConsumer + i) % count);
                final int n = pushTo(consumer, Math.min(turn, credit(consumer)));
                pushed += n;
                progress |= n > 0;
            }
        }
        if (count > 0)
        {
            nextConsumer = (nextConsumer + 1) % count;
        }
        return pushed;
    }

    private int evenTurn(final int consumers)
    {
        return (int)Math.max(MIN_TURN, Math.min(MAX_TURN, PartitionWorker.readyCount(partitions) / consumers));
    }

    /**
     * How many more deliveries a consumer may take: up to its prefetch of unacked ones (for auto-ack, of ones it has
     * not taken yet), and never more than its hand-off ring has room for (a delivery whose lock expired before the
     * consumer took it leaves the prefetch but not the ring).
     */
    private int credit(final QueueConsumer consumer)
    {
        if (consumer.isClosed())
        {
            // Whatever a closing consumer were handed now would come straight back, or, acked on hand-over, be lost.
            return 0;
        }
        final DeliveryHandoff handoff = consumer.handoff;
        final int prefetch = consumer.options().prefetch();
        return consumer.options().autoAck() ? prefetch - handoff.pending() :
            handoff.room(prefetch - inFlightOf(consumer.id()));
    }

    /** Stages up to {@code max} messages for one consumer; returns how many were acquired. */
    private int pushTo(final QueueConsumer consumer, final int max)
    {
        if (max <= 0)
        {
            return 0;
        }
        if (!consumer.options().autoAck())
        {
            stage.to(consumer);
            return acquire(max, consumer.id(), 0, stage);
        }
        final int n = acquire(max, consumer.id(), 0, collect);
        for (int d = 0; d < n; d++)
        {
            final SubscriptionPartitionState state = partitions[acquiredPartitions.getInt(d)].state();
            final long offset = acquiredOffsets.getLong(d);
            final int deliveryNumber = acquiredDeliveries.getInt(d);
            HandoffStager.stage(consumer, state, offset, deliveryNumber);
            state.ack(offset, deliveryNumber);
        }
        return n;
    }

    private int inFlightOf(final int consumerId)
    {
        int held = 0;
        for (final PartitionWorker partition : partitions)
        {
            held += partition.state().inFlightOf(consumerId);
        }
        return held;
    }

    /**
     * Acquires up to {@code max} messages for a receive, locked for {@code lockMillis} (0 for the subscription's lock
     * timeout), and adds to {@code deliveries} those still in the log.
     */
    void receive(final int max, final long lockMillis, final List<Delivery> deliveries)
    {
        final int n = acquire(max, ReceiptCheck.PULL_CONSUMER, lockMillis, collect);
        for (int i = 0; i < n; i++)
        {
            final Delivery delivery = new Delivery();
            if (fill(i, delivery))
            {
                deliveries.add(delivery);
            }
        }
    }

    /**
     * Acquires up to {@code max} messages across partitions, taking partitions in turn, and hands each to
     * {@code handler} ({@link #collect} puts them in the acquired lists, partition by partition).
     */
    private int acquire(final int max, final int consumerId, final long lockMillis, final DeliveryHandler handler)
    {
        acquiredOffsets.clear();
        acquiredDeliveries.clear();
        acquiredPartitions.clear();
        int total = 0;
        for (int i = 0; i < partitions.length && total < max; i++)
        {
            acquiringFrom = partitions[(nextPartition + i) % partitions.length].state();
            stage.from(acquiringFrom);
            total += lockMillis == 0 ? acquiringFrom.acquire(max - total, consumerId, handler) :
                acquiringFrom.acquire(max - total, consumerId, lockMillis, handler);
        }
        nextPartition = (nextPartition + 1) % partitions.length;
        return total;
    }

    /** Copies acquired message {@code i} into {@code delivery} for a receive; a message retention removed is acked. */
    private boolean fill(final int i, final Delivery delivery)
    {
        final PartitionWorker partition = partitions[acquiredPartitions.getInt(i)];
        final long offset = acquiredOffsets.getLong(i);
        final int deliveryNumber = acquiredDeliveries.getInt(i);
        if (partition.read(offset, deliveryNumber, delivery))
        {
            return true;
        }
        partition.state().ack(offset, deliveryNumber);
        return false;
    }
}
