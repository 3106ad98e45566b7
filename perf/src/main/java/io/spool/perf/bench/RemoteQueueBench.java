package io.spool.perf.bench;

import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.perf.report.BenchRun;
import io.spool.wire.client.RemoteDelivery;
import io.spool.wire.client.RemoteQueueConsumer;
import io.spool.wire.client.RemoteSubscription;
import io.spool.wire.client.SpoolClient;
import org.HdrHistogram.AtomicHistogram;

import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

/**
 * {@code spool bench queue --server HOST:PORT}: records published with confirms to a running server, at a target
 * rate or as fast as it takes them, for a duration, while consumers on connections of their own take them from a
 * subscription and ack every delivery: push consumers with a prefetch (as RabbitMQ's PerfTest with
 * {@code --qos}), or pull consumers receiving up to that many at a time and acking each batch of receipts (as an SQS
 * client's ReceiveMessage and DeleteMessageBatch). Each configuration runs on a topic and subscription of its own,
 * deleted afterwards. Stateless: one run at a time.
 */
public final class RemoteQueueBench
{
    public static final String NAME = "queue";
    /** How long a pull consumer's receive waits for a message when none is ready. */
    private static final long RECEIVE_WAIT_MILLIS = 100;

    private RemoteQueueBench()
    {
    }

    /** How the consumers take their messages. */
    public enum Mode
    {
        PUSH, PULL
    }

    /**
     * @param prefetches per configuration, a push consumer's prefetch, or the most a pull consumer receives at
     *                   once (up to 10,000).
     * @return per configuration, the publish result, then the ack result.
     * @throws IllegalArgumentException for a consumer count or prefetch that cannot run.
     */
    public static List<BenchRun> run(final RemoteLoad load, final Mode mode, final int[] consumerCounts,
        final int[] prefetches, final PrintWriter progress)
    {
        final List<BenchRun> runs = new ArrayList<>();
        for (final int consumers : consumerCounts)
        {
            for (final int prefetch : prefetches)
            {
                if (consumers < 1 || prefetch < 1 || prefetch > (mode == Mode.PULL ? 10_000 :
                    ConsumerOptions.MAX_PREFETCH))
                {
                    throw new IllegalArgumentException("consumers must be at least 1 and prefetch from 1 to " +
                        (mode == Mode.PULL ? "10000 (a pull receive's most)" : ConsumerOptions.MAX_PREFETCH) +
                        "; were " + consumers + " and " + prefetch);
                }
                runs.addAll(runOne(load, mode, consumers, prefetch, progress));
            }
        }
        return runs;
    }

    private static List<BenchRun> runOne(final RemoteLoad load, final Mode mode, final int consumers,
        final int prefetch, final PrintWriter progress)
    {
        final RemoteRun run = new RemoteRun(load, NAME, String.format(Locale.ROOT, "%s, prefetch %d, %d consumer(s)",
            mode.name().toLowerCase(Locale.ROOT), prefetch, consumers), progress);
        try (SpoolClient producer = SpoolClient.connect(load.server()))
        {
            final String topic = RemoteRun.freshName("bench-queue");
            run.createTopic(producer, topic);
            try
            {
                producer.admin().createSubscription(topic, topic, SubscriptionSettings.DEFAULT);
                try (Takers takers = mode == Mode.PUSH ? new PushTakers(load, topic, consumers, prefetch) :
                    new PullTakers(load, topic, consumers, prefetch))
                {
                    return run.run(producer, topic, takers, "acked");
                }
                finally
                {
                    producer.admin().deleteSubscription(topic);
                }
            }
            finally
            {
                producer.admin().deleteTopic(topic);
            }
        }
    }

    /** The consumers' shared count and latency, and their connections. */
    private abstract static class Takers implements RemoteRun.Consumers
    {
        final LongAdder taken = new LongAdder();
        final AtomicHistogram latency = LatencyHistograms.newHistogram();
        final List<SpoolClient> clients = new ArrayList<>();

        Takers(final RemoteLoad load, final int consumers)
        {
            for (int i = 0; i < consumers; i++)
            {
                clients.add(SpoolClient.connect(load.server()));
            }
        }

        /** Records a delivery's publish-to-delivery latency from the due time its value starts with. */
        final void delivered(final long dueNanos)
        {
            LatencyHistograms.record(latency, System.nanoTime() - dueNanos);
        }

        @Override
        public long taken()
        {
            return taken.sum();
        }

        @Override
        public AtomicHistogram latency()
        {
            return latency;
        }

        @Override
        public void close()
        {
            clients.forEach(SpoolClient::close);
        }
    }

    /** Push consumers, one a connection, each acking every delivery on its connection's thread. */
    private static final class PushTakers extends Takers
    {
        private final List<RemoteQueueConsumer> consumers = new ArrayList<>();

        PushTakers(final RemoteLoad load, final String subscription, final int count, final int prefetch)
        {
            super(load, count);
            for (final SpoolClient client : clients)
            {
                consumers.add(client.subscription(subscription).consume(ConsumerOptions.prefetch(prefetch),
                    (delivery, consumer) ->
                    {
                        if (delivery.valueLength() >= Long.BYTES)
                        {
                            delivered(delivery.buffer().getLongLE(delivery.valueIndex()));
                        }
                        consumer.ack(delivery);
                        taken.increment();
                    }));
            }
        }

        @Override
        public void close()
        {
            consumers.forEach(RemoteQueueConsumer::close);
            super.close();
        }
    }

    /** Pull consumers, one a connection and a thread, each acking every batch it received in one settlement. */
    private static final class PullTakers extends Takers
    {
        private final List<Thread> threads = new ArrayList<>();
        private volatile boolean running = true;
        private volatile RuntimeException failure;

        PullTakers(final RemoteLoad load, final String subscription, final int count, final int prefetch)
        {
            super(load, count);
            for (final SpoolClient client : clients)
            {
                final RemoteSubscription pull = client.subscription(subscription);
                final Thread thread = new Thread(() -> receiveUntilClosed(pull, prefetch), "spool-bench-pull");
                thread.setDaemon(true);
                threads.add(thread);
                thread.start();
            }
        }

        private void receiveUntilClosed(final RemoteSubscription pull, final int max)
        {
            final List<Receipt> receipts = new ArrayList<>(max);
            try
            {
                while (running)
                {
                    final List<RemoteDelivery> deliveries = pull.receive(max, RECEIVE_WAIT_MILLIS);
                    if (deliveries.isEmpty())
                    {
                        continue;
                    }
                    receipts.clear();
                    for (final RemoteDelivery delivery : deliveries)
                    {
                        final byte[] value = delivery.value();
                        if (value != null && value.length >= Long.BYTES)
                        {
                            delivered(ByteBuffer.wrap(value).order(ByteOrder.LITTLE_ENDIAN).getLong(0));
                        }
                        receipts.add(delivery.receipt());
                    }
                    final int refused = pull.ack(receipts).failed().size();
                    taken.add(receipts.size() - refused);
                }
            }
            catch (final RuntimeException ex)
            {
                failure = ex;
            }
        }

        /**
         * @throws IllegalStateException when a consumer failed while it ran.
         */
        @Override
        public void close()
        {
            running = false;
            for (final Thread thread : threads)
            {
                try
                {
                    thread.join();
                }
                catch (final InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                }
            }
            super.close();
            if (failure != null)
            {
                throw new IllegalStateException("a pull consumer failed: " + failure.getMessage(), failure);
            }
        }
    }
}
