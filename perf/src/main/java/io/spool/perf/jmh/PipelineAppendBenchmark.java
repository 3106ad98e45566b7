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
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Appends through the whole ingest pipeline with durability {@code NONE}: one producer publishing batches of
 * {@link #BATCH} records to one log, at most {@link #IN_FLIGHT} batches unconfirmed. One operation is one record;
 * every iteration ends when its last batch is confirmed. Compare with {@link RawAppendBenchmark} from the same JMH
 * run; with {@code -prof gc} the allocation per record shows in {@code gc.alloc.rate.norm}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class PipelineAppendBenchmark
{
    static final int BATCH = RawAppendBenchmark.BATCH;

    /** Half of the default ring, so the producer parks in its window rather than spinning on a full ring. */
    static final int IN_FLIGHT = 8;

    private ScratchDirectory directory;
    private LogStore store;
    private BatchPublisher publisher;

    @Setup(Level.Trial)
    public void openLog()
    {
        directory = ScratchDirectory.create(JmhSettings.dataDirectory(), "jmh-pipeline-append");
        store = JmhSettings.openStore(directory);
        final PartitionLog log = JmhSettings.openLog(store, Durability.NONE);
        final UnsafeBuffer value = Payloads.direct(JmhSettings.value());
        final ProducerConfirms confirms = new ProducerConfirms(
            ProducerConfirms.UNBOUNDED, BATCH, IN_FLIGHT, LatencyHistograms.newHistogram());
        publisher = new BatchPublisher(store.newProducer(), new PartitionLog[] {log}, 0, value, confirms, IN_FLIGHT);
    }

    @TearDown(Level.Iteration)
    public void awaitConfirms()
    {
        publisher.awaitAllConfirmed();
    }

    @TearDown(Level.Trial)
    public void deleteLog()
    {
        store.close();
        directory.close();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public void pipelineAppend()
    {
        publisher.publishNextBatch();
    }
}
