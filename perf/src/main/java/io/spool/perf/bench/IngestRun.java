package io.spool.perf.bench;

import io.spool.api.log.LogConfig;
import io.spool.api.stream.TopicConfig;
import io.spool.log.LogStore;
import io.spool.log.LogStoreConfig;
import io.spool.log.PartitionLog;
import io.spool.perf.report.ProgressLine;
import io.spool.perf.report.ThroughputSeries;
import io.spool.stream.StreamEngine;
import io.spool.stream.StreamEngineConfig;
import io.spool.stream.Topic;
import org.HdrHistogram.AtomicHistogram;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;

/**
 * A log store with one log per partition, and producer threads that publish the benchmark's records into it
 * through the ingest pipeline, batch by batch, each producer spreading its batches over the partitions in turn.
 * Not thread-safe: driven by one thread.
 */
final class IngestRun implements AutoCloseable
{
    static final String PIPELINE = "spool ingest pipeline";

    static final String TOPIC = "bench";

    private final BenchSettings settings;
    private final LogStore store;
    private final PartitionLog[] logs;
    /** Owns the store when the records go to a topic; null when they go to bare logs. */
    private final StreamEngine engine;

    /**
     * What a run measured.
     *
     * @param elapsedNanos  from the producers' start to the last confirm.
     * @param latencyNanos  publish-to-confirm latency of every batch.
     * @param fsyncs        fsyncs the pipelines did meanwhile, as {@link LogStore#fsyncCount()} counts them.
     * @param throughput    confirmed records per second over the run, sampled.
     */
    record Outcome(long elapsedNanos, AtomicHistogram latencyNanos, long fsyncs, ThroughputSeries throughput)
    {
    }

    private IngestRun(final BenchSettings settings, final LogStore store, final PartitionLog[] logs,
        final StreamEngine engine)
    {
        this.settings = settings;
        this.store = store;
        this.logs = logs;
        this.engine = engine;
    }

    /** The records go to one bare log per partition. */
    static IngestRun onLogs(final Path directory, final BenchSettings settings)
    {
        final LogStore store = LogStore.open(directory, storeConfig(settings));
        final PartitionLog[] logs = new PartitionLog[settings.partitions()];
        for (int i = 0; i < logs.length; i++)
        {
            logs[i] = store.openLog("bench/" + i, logConfig(settings));
        }
        return new IngestRun(settings, store, logs, null);
    }

    /** The records go to the partitions of the topic {@link #TOPIC}, through the same pipeline. */
    static IngestRun onTopic(final Path directory, final BenchSettings settings)
    {
        final StreamEngine engine = StreamEngine.open(directory, new StreamEngineConfig(storeConfig(settings), false));
        final Topic topic = engine.createTopic(TOPIC, TopicConfig.of(settings.partitions()).withLog(logConfig(settings)));
        final PartitionLog[] logs = new PartitionLog[settings.partitions()];
        for (int i = 0; i < logs.length; i++)
        {
            logs[i] = topic.partition(i);
        }
        return new IngestRun(settings, engine.logStore(), logs, engine);
    }

    private static LogStoreConfig storeConfig(final BenchSettings settings)
    {
        return LogStoreConfig.builder().pipelines(settings.pipelines()).backgroundMaintenance(false).build();
    }

    private static LogConfig logConfig(final BenchSettings settings)
    {
        return LogConfig.builder().durability(settings.durability()).build();
    }

    PartitionLog[] logs()
    {
        return logs.clone();
    }

    /** @throws IllegalStateException when the records went to bare logs. */
    StreamEngine engine()
    {
        if (engine == null)
        {
            throw new IllegalStateException("this run wrote bare logs, not a topic");
        }
        return engine;
    }

    /**
     * Publishes every record and waits for every confirm.
     *
     * @throws IllegalStateException when a record could not be appended: the figures would mean nothing.
     */
    Outcome ingest(final String task, final PrintWriter progressOut) throws InterruptedException
    {
        final AtomicHistogram latencyNanos = LatencyHistograms.newHistogram();
        final CountDownLatch start = new CountDownLatch(1);
        final Producer[] producers = new Producer[settings.producers()];
        final Thread[] threads = new Thread[producers.length];
        for (int i = 0; i < producers.length; i++)
        {
            producers[i] = new Producer(i, settings.recordsOfProducer(i), latencyNanos, start);
            threads[i] = new Thread(producers[i], "spool-bench-producer-" + i);
            threads[i].start();
        }

        final long fsyncsBefore = store.fsyncCount();
        final long elapsedNanos;
        final ThroughputSeries throughput;
        try (ProgressLine ignored = ProgressLine.start(task, settings.records(), () -> completedRecords(producers),
            progressOut);
            ThroughputSampler sampler = ThroughputSampler.start(PIPELINE, () -> completedRecords(producers)))
        {
            final long startNanos = System.nanoTime();
            start.countDown();
            for (final Thread thread : threads)
            {
                thread.join();
            }
            elapsedNanos = System.nanoTime() - startNanos;
            throughput = sampler.stop();
        }
        final long fsyncs = store.fsyncCount() - fsyncsBefore;

        for (final Producer producer : producers)
        {
            producer.rethrowFailure();
        }
        return new Outcome(Math.max(1, elapsedNanos), latencyNanos, fsyncs, throughput);
    }

    private static long completedRecords(final Producer[] producers)
    {
        long completed = 0;
        for (final Producer producer : producers)
        {
            completed += producer.confirms.completedRecords();
        }
        return completed;
    }

    @Override
    public void close()
    {
        if (engine != null)
        {
            engine.close();
        }
        else
        {
            store.close();
        }
    }

    private final class Producer implements Runnable
    {
        private final int index;
        private final ProducerConfirms confirms;
        private final CountDownLatch start;
        private volatile RuntimeException failure;

        Producer(final int index, final long records, final AtomicHistogram latencyNanos, final CountDownLatch start)
        {
            this.index = index;
            this.confirms = new ProducerConfirms(
                records, settings.batchSize(), settings.maxInFlightBatches(), latencyNanos);
            this.start = start;
        }

        @Override
        public void run()
        {
            try
            {
                final BatchPublisher publisher = new BatchPublisher(store.newProducer(), logs, index,
                    Payloads.direct(settings.value()), confirms, settings.maxInFlightBatches());
                start.await();
                publisher.publishAllAndAwaitConfirms();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
                failure = new IllegalStateException("producer " + index + " was interrupted", ex);
            }
            catch (final RuntimeException ex)
            {
                failure = ex;
            }
        }

        void rethrowFailure()
        {
            if (failure != null)
            {
                throw failure;
            }
            if (confirms.firstFailure() != null)
            {
                throw new IllegalStateException("producer " + index + ": " + confirms.failedRecords() +
                    " records failed to append; the first failure: " + confirms.firstFailure().getMessage(),
                    confirms.firstFailure());
            }
        }
    }
}
