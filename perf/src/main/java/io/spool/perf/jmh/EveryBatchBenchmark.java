package io.spool.perf.jmh;

import io.spool.api.log.Durability;
import io.spool.log.LogStore;
import io.spool.log.PartitionLog;
import io.spool.perf.bench.BatchPublisher;
import io.spool.perf.bench.LatencyHistograms;
import io.spool.perf.bench.Payloads;
import io.spool.perf.bench.ProducerConfirms;
import io.spool.perf.bench.ScratchDirectory;
import org.agrona.concurrent.UnsafeBuffer;
import org.openjdk.jmh.annotations.AuxCounters;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Group commit under {@code EVERY_BATCH}: every JMH thread is a producer that publishes one record and waits for
 * its confirm. Run with {@code -t 1}, {@code -t 4}, {@code -t 16}: the score is confirms/s over all producers and
 * the {@code fsyncs} counter is fsyncs/s, from {@link LogStore#fsyncCount()}. Group commit shows as confirms/s
 * growing with the threads while fsyncs/s stays about flat.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class EveryBatchBenchmark
{
    private ScratchDirectory directory;
    private LogStore store;
    private PartitionLog log;
    private final AtomicBoolean fsyncCounterTaken = new AtomicBoolean();

    @Setup(Level.Trial)
    public void openLog()
    {
        directory = ScratchDirectory.create(JmhSettings.dataDirectory(), "jmh-every-batch");
        store = JmhSettings.openStore(directory);
        log = JmhSettings.openLog(store, Durability.EVERY_BATCH);
    }

    @TearDown(Level.Trial)
    public void deleteLog()
    {
        store.close();
        directory.close();
    }

    /** One producer thread; its public field is a JMH counter, reported per second and summed over threads. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.OPERATIONS)
    public static class Producer
    {
        /**
         * The store's fsyncs since the iteration began, kept by one producer only so that the sum over the threads
         * is the store's count.
         */
        public long fsyncs;

        private LogStore store;
        private BatchPublisher publisher;
        private boolean countsFsyncs;
        private long fsyncsAtIterationStart;

        @Setup(Level.Trial)
        public void createPublisher(final EveryBatchBenchmark benchmark)
        {
            store = benchmark.store;
            countsFsyncs = benchmark.fsyncCounterTaken.compareAndSet(false, true);
            final UnsafeBuffer value = Payloads.direct(JmhSettings.value());
            final ProducerConfirms confirms = new ProducerConfirms(
                ProducerConfirms.UNBOUNDED, 1, 1, LatencyHistograms.newHistogram());
            publisher = new BatchPublisher(
                store.newProducer(), new PartitionLog[] {benchmark.log}, 0, value, confirms, 1);
        }

        @Setup(Level.Iteration)
        public void startCounting()
        {
            fsyncs = 0;
            fsyncsAtIterationStart = store.fsyncCount();
        }

        void publishAndAwaitConfirm()
        {
            publisher.publishNextBatch();
            publisher.awaitAllConfirmed();
            if (countsFsyncs)
            {
                fsyncs = store.fsyncCount() - fsyncsAtIterationStart;
            }
        }
    }

    @Benchmark
    public void confirmedAppend(final Producer producer)
    {
        producer.publishAndAwaitConfirm();
    }
}
