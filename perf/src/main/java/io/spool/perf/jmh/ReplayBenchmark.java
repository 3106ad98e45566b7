package io.spool.perf.jmh;

import io.spool.api.log.Durability;
import io.spool.log.LogStore;
import io.spool.log.PartitionLog;
import io.spool.perf.bench.BatchPublisher;
import io.spool.perf.bench.LatencyHistograms;
import io.spool.perf.bench.Payloads;
import io.spool.perf.bench.ProducerConfirms;
import io.spool.perf.bench.ReplayLoop;
import io.spool.perf.bench.ScratchDirectory;
import org.HdrHistogram.AtomicHistogram;
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
 * Sequential replay through {@code LogReader} of {@link RawScanBenchmark#RECORDS} records written once through the
 * pipeline, with the same per-record work as the raw scan. One operation is one record. Compare with
 * {@link RawScanBenchmark} from the same JMH run.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class ReplayBenchmark
{
    static final int RECORDS = RawScanBenchmark.RECORDS;
    private static final int BATCH = 256;
    private static final int IN_FLIGHT = 8;

    private ScratchDirectory directory;
    private LogStore store;
    private ReplayLoop replay;
    private AtomicHistogram pollNanos;

    @Setup(Level.Trial)
    public void writeRecords()
    {
        directory = ScratchDirectory.create(JmhSettings.dataDirectory(), "jmh-replay");
        store = JmhSettings.openStore(directory);
        final PartitionLog log = JmhSettings.openLog(store, Durability.NONE);
        final UnsafeBuffer value = Payloads.direct(JmhSettings.value());
        final ProducerConfirms confirms = new ProducerConfirms(
            RECORDS, BATCH, IN_FLIGHT, LatencyHistograms.newHistogram());
        new BatchPublisher(store.newProducer(), new PartitionLog[] {log}, 0, value, confirms, IN_FLIGHT)
            .publishAllAndAwaitConfirms();
        replay = new ReplayLoop(new PartitionLog[] {log}, BATCH);
        pollNanos = LatencyHistograms.newHistogram();
    }

    @TearDown(Level.Trial)
    public void deleteRecords()
    {
        replay.close();
        store.close();
        directory.close();
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public long replay()
    {
        return replay.replayAll(pollNanos);
    }
}
