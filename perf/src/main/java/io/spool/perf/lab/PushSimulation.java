package io.spool.perf.lab;

import io.spool.api.queue.ConsumerOptions;
import io.spool.queue.QueueConsumer;
import io.spool.queue.Subscription;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Push consumers in virtual time. Each simulated consumer keeps what Spool pushed to it in its own buffer (as a
 * client library does), works on one message at a time for its processing time, then acks or nacks it; the clock
 * jumps from one finished message to the next.
 * <p>
 * Design note: Spool pushes from its own threads, so after every settlement the simulation waits until its
 * consumers hold exactly what the subscription counts as in flight. Settlements that fall on the same virtual
 * millisecond are applied one consumer at a time, in the order the consumers were attached, so who gets the next
 * message never depends on thread timing and the lab prints the same table every run. One choice stays Spool's:
 * when two consumers have credit and a single message becomes ready, whose turn it is depends on how many passes
 * the dispatcher made. Labs keep out of that case (a backlog behind prefetch 1); runs that cannot, such as message
 * groups, pull instead.
 * <p>
 * Not thread-safe: driven by the lab's thread.
 */
final class PushSimulation implements AutoCloseable
{
    private static final long ARRIVAL_TIMEOUT_SECONDS = 30;

    /** How a simulated consumer settles a message it finished. */
    enum Outcome
    {
        ACK, NACK
    }

    /** Decides the outcome of each finished message. */
    interface Worker
    {
        Outcome finish(Received message);
    }

    /** One consumer: its processing time, its buffer and what it finished. Not thread-safe. */
    static final class SimulatedConsumer
    {
        private final long processingMillis;
        private final ArrayDeque<Received> buffer = new ArrayDeque<>();
        private QueueConsumer handle;
        private Received current;
        private long finishAt;
        private int acked;
        private int handled;

        private SimulatedConsumer(final long processingMillis)
        {
            this.processingMillis = processingMillis;
        }

        int acked()
        {
            return acked;
        }

        /** Messages finished, acked or nacked. */
        int handled()
        {
            return handled;
        }
    }

    private record Arrival(SimulatedConsumer consumer, Received message)
    {
    }

    private final LabEngine engine;
    private final Subscription subscription;
    private final List<SimulatedConsumer> consumers = new ArrayList<>();
    private final BlockingQueue<Arrival> arrivals = new LinkedBlockingQueue<>();
    private long received;
    private long settled;

    PushSimulation(final LabEngine engine, final Subscription subscription)
    {
        this.engine = engine;
        this.subscription = subscription;
    }

    /** Starts a push consumer with manual acks and waits for what Spool pushes to it at once. */
    SimulatedConsumer attach(final int prefetch, final long processingMillis)
    {
        final SimulatedConsumer consumer = new SimulatedConsumer(processingMillis);
        consumer.handle = subscription.consume(ConsumerOptions.prefetch(prefetch),
            (delivery, queueConsumer) -> arrivals.add(new Arrival(consumer, Received.of(delivery))));
        consumers.add(consumer);
        settle();
        return consumer;
    }

    /** Runs until {@code done} holds; every consumer works whenever its buffer holds something. */
    void runUntil(final BooleanSupplier done, final Worker worker)
    {
        while (true)
        {
            for (final SimulatedConsumer consumer : consumers)
            {
                if (consumer.current == null && !consumer.buffer.isEmpty())
                {
                    consumer.current = consumer.buffer.poll();
                    consumer.finishAt = engine.now() + consumer.processingMillis;
                }
            }
            if (done.getAsBoolean())
            {
                return;
            }
            final long next = consumers.stream().filter(c -> c.current != null)
                .mapToLong(c -> c.finishAt).min()
                .orElseThrow(() -> new IllegalStateException("no consumer has work left, yet the lab is not done"));
            engine.advanceTo(next, subscription);
            for (final SimulatedConsumer consumer : consumers)
            {
                if (consumer.current != null && consumer.finishAt == next)
                {
                    final Received message = consumer.current;
                    consumer.current = null;
                    consumer.handled++;
                    if (worker.finish(message) == Outcome.ACK)
                    {
                        consumer.acked++;
                        consumer.handle.ack(message.receipt());
                    }
                    else
                    {
                        consumer.handle.nack(message.receipt());
                    }
                    settled++;
                    settle();
                }
            }
        }
    }

    /** Waits until the subscription acted on every settlement and each consumer holds all it was pushed. */
    private void settle()
    {
        subscription.sync();
        while (received - settled != subscription.metrics().inFlight())
        {
            try
            {
                final Arrival arrival = arrivals.poll(ARRIVAL_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                if (arrival == null)
                {
                    throw new IllegalStateException("a pushed delivery did not reach its consumer in " +
                        ARRIVAL_TIMEOUT_SECONDS + " s");
                }
                take(arrival);
                Arrival more;
                while ((more = arrivals.poll()) != null)
                {
                    take(more);
                }
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for pushed deliveries", ex);
            }
        }
    }

    private void take(final Arrival arrival)
    {
        arrival.consumer.buffer.add(arrival.message);
        received++;
    }

    @Override
    public void close()
    {
        for (final SimulatedConsumer consumer : consumers)
        {
            consumer.handle.close();
        }
    }
}
