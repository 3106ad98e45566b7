package io.spool.perf.bench;

import io.spool.api.stream.TopicPartition;
import io.spool.perf.report.BenchRun;
import io.spool.wire.client.RemoteStreamConsumer;
import io.spool.wire.client.SpoolClient;
import org.HdrHistogram.AtomicHistogram;

import java.io.PrintWriter;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code spool bench wire --server HOST:PORT}: records published with confirms over one connection to a running
 * server, at a target rate or as fast as it takes them, for a duration, while a stream consumer on a second
 * connection fetches them as they come (as Kafka's producer and consumer perf tools, run together, or
 * {@code nats bench} with a publisher and a subscriber). Stateless: one run at a time.
 */
public final class RemoteStreamBench
{
    public static final String NAME = "wire";
    private static final int MAX_RECORDS_PER_POLL = 10_000;
    private static final int MAX_POLL_BYTES = 1 << 20;
    private static final Duration POLL_TIMEOUT = Duration.ofMillis(100);

    private RemoteStreamBench()
    {
    }

    /** @return the publish result, then the consume result. */
    public static List<BenchRun> run(final RemoteLoad load, final PrintWriter progress)
    {
        final RemoteRun run = new RemoteRun(load, NAME, "1 connection", progress);
        try (SpoolClient producer = SpoolClient.connect(load.server());
            SpoolClient reader = SpoolClient.connect(load.server()))
        {
            final String topic = RemoteRun.freshName("bench-wire");
            run.createTopic(producer, topic);
            try (Tail tail = new Tail(reader, topic, load.partitions()))
            {
                return run.run(producer, topic, tail, "consumed");
            }
            finally
            {
                producer.admin().deleteTopic(topic);
            }
        }
    }

    /** Fetches every partition of the topic from its start on a thread of its own until closed. */
    private static final class Tail implements RemoteRun.Consumers
    {
        private final RemoteStreamConsumer consumer;
        private final AtomicLong taken = new AtomicLong();
        private final AtomicHistogram latency = LatencyHistograms.newHistogram();
        private final Thread thread;
        private volatile boolean running = true;
        private volatile RuntimeException failure;

        Tail(final SpoolClient client, final String topic, final int partitions)
        {
            this.consumer = client.newStreamReader();
            final List<TopicPartition> all = new ArrayList<>(partitions);
            for (int p = 0; p < partitions; p++)
            {
                all.add(new TopicPartition(topic, p));
            }
            consumer.assign(all);
            consumer.seekToBeginning(all);
            this.thread = new Thread(this::fetchUntilClosed, "spool-bench-consumer");
            this.thread.setDaemon(true);
            this.thread.start();
        }

        private void fetchUntilClosed()
        {
            try
            {
                while (running)
                {
                    consumer.poll((topic, partition, record) ->
                    {
                        if (record.valueLength() >= Long.BYTES)
                        {
                            LatencyHistograms.record(latency, System.nanoTime() -
                                record.buffer().getLong(record.valueOffset(), ByteOrder.LITTLE_ENDIAN));
                        }
                        taken.lazySet(taken.get() + 1);
                    }, MAX_RECORDS_PER_POLL, MAX_POLL_BYTES, POLL_TIMEOUT);
                }
            }
            catch (final RuntimeException ex)
            {
                failure = ex;
            }
        }

        @Override
        public long taken()
        {
            return taken.get();
        }

        @Override
        public AtomicHistogram latency()
        {
            return latency;
        }

        /**
         * @throws IllegalStateException when the consumer failed while it ran.
         */
        @Override
        public void close()
        {
            running = false;
            try
            {
                thread.join();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            consumer.close();
            if (failure != null)
            {
                throw new IllegalStateException("the stream consumer failed: " + failure.getMessage(), failure);
            }
        }
    }
}
