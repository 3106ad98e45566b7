package io.spool.perf.lab;

import io.spool.api.queue.ConsumerOptions;
import io.spool.queue.QueueConsumer;
import io.spool.queue.Subscription;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.TimeUnit;

/**
 * A push consumer that handles each delivery inside its listener, as most consumers do, with the lab deciding when
 * the work is over: the listener hands the delivery to the lab and waits for its verdict, while Spool keeps up to
 * the prefetch waiting behind it. Not thread-safe: one lab thread drives it.
 */
final class InlineConsumer
{
    private static final long TIMEOUT_SECONDS = 30;

    private enum Verdict
    {
        ACK, DROP
    }

    private final Subscription subscription;
    private final BlockingQueue<Received> arrivals = new LinkedBlockingQueue<>();
    private final SynchronousQueue<Verdict> verdicts = new SynchronousQueue<>();
    private final QueueConsumer handle;

    InlineConsumer(final Subscription subscription, final ConsumerOptions options)
    {
        this.subscription = subscription;
        this.handle = subscription.consume(options, (delivery, consumer) ->
        {
            arrivals.add(Received.of(delivery));
            if (await(verdicts) == Verdict.ACK)
            {
                consumer.ack(delivery);
            }
        });
    }

    /**
     * Waits for the listener to be handed the next delivery, then for the subscription to refill the consumer's
     * buffer behind it.
     */
    Received next()
    {
        final Received message = await(arrivals);
        subscription.sync();
        return message;
    }

    /** Ends the work on the current delivery: acks it (a no-op under auto-ack) and lets the next one in. */
    void finish()
    {
        give(Verdict.ACK);
    }

    /**
     * The consumer dies in the middle of the current delivery: nothing more is settled, and whatever Spool still
     * counts as the consumer's goes back to the subscription.
     */
    void kill()
    {
        final Thread closer = new Thread(handle::close, "lab-consumer-killer");
        closer.start();
        while (!handle.isClosed())
        {
            Thread.onSpinWait();
        }
        give(Verdict.DROP);
        try
        {
            closer.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the consumer closed", ex);
        }
        subscription.sync();
    }

    private void give(final Verdict verdict)
    {
        try
        {
            if (!verdicts.offer(verdict, TIMEOUT_SECONDS, TimeUnit.SECONDS))
            {
                throw new IllegalStateException("the consumer's listener did not take the verdict in " +
                    TIMEOUT_SECONDS + " s");
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while handing a verdict to the consumer", ex);
        }
    }

    private static <T> T await(final BlockingQueue<T> queue)
    {
        try
        {
            final T value = queue.poll(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            if (value == null)
            {
                throw new IllegalStateException("nothing arrived in " + TIMEOUT_SECONDS + " s");
            }
            return value;
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting", ex);
        }
    }
}
