package io.spool.cluster;

import io.spool.api.queue.AlreadySettledException;
import io.spool.api.queue.StaleReceiptException;

import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One consumer of a replicated subscription on its own thread: receives a few messages of a partition at a time,
 * releases each message whose offset is a multiple of {@link #RELEASED_EVERY} on its first delivery (so delivery
 * counts climb), acks the others, and notes everything in a {@link QueueHistory}.
 */
final class ReceiveLoad implements AutoCloseable
{
    static final int RELEASED_EVERY = 5;
    private static final int MAX_PER_RECEIVE = 10;
    private static final long IDLE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final ClusterClient client;
    private final String topic;
    private final String subscription;
    private final long lockMillis;
    private final QueueHistory history;
    private final Thread thread;
    private volatile boolean running = true;

    ReceiveLoad(final ClusterClient client, final String topic, final String subscription, final long lockMillis,
        final QueueHistory history)
    {
        this.client = client;
        this.topic = topic;
        this.subscription = subscription;
        this.lockMillis = lockMillis;
        this.history = history;
        this.thread = new Thread(this::run, "receive-load");
        thread.start();
    }

    private void run()
    {
        while (running)
        {
            final long askedAt = history.receiving();
            final List<ClusterDelivery> deliveries;
            try
            {
                deliveries = client.receive(topic, 0, subscription, MAX_PER_RECEIVE, lockMillis);
            }
            catch (final UncheckedIOException unanswered)
            {
                continue; // what it delivered, if anything, comes back once its lock runs out
            }
            history.received(askedAt, deliveries);
            if (deliveries.isEmpty())
            {
                LockSupport.parkNanos(IDLE_NANOS);
            }
            for (final ClusterDelivery delivery : deliveries)
            {
                settle(delivery);
            }
        }
    }

    private void settle(final ClusterDelivery delivery)
    {
        try
        {
            if (delivery.deliveryCount() == 1 && delivery.offset() % RELEASED_EVERY == 0)
            {
                client.nack(delivery.receipt(), 0);
                return;
            }
            client.ack(delivery.receipt());
            history.acked(delivery.offset());
        }
        catch (final AlreadySettledException acked)
        {
            // an earlier ack of this message was applied, its answer lost in a failover
            history.acked(delivery.offset());
        }
        catch (final StaleReceiptException lockRanOut)
        {
            // the lock ran out during a failover: the message comes again, one delivery higher
        }
        catch (final UncheckedIOException unanswered)
        {
            if (delivery.deliveryCount() > 1 || delivery.offset() % RELEASED_EVERY != 0)
            {
                history.ackUnanswered(delivery.offset());
            }
        }
    }

    /** Stops receiving once the settle under way is done. */
    @Override
    public void close() throws InterruptedException
    {
        running = false;
        thread.join();
    }
}
