package io.spool.perf.jmh;

import io.spool.perf.baseline.RawMappedAppendBaseline;
import io.spool.perf.bench.ScratchDirectory;
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
 * The append yardstick: records per second of {@link RawMappedAppendBaseline} cycling through a small pool of
 * pre-allocated segments. One operation is one record.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class RawAppendBenchmark
{
    /** Records per call, stamped with one clock read as the log's batch is. */
    static final int BATCH = 256;

    static final int SEGMENT_POOL = 4;

    private ScratchDirectory directory;
    private RawMappedAppendBaseline baseline;

    @Setup(Level.Trial)
    public void createSegments()
    {
        directory = ScratchDirectory.create(JmhSettings.dataDirectory(), "jmh-raw-append");
        baseline = new RawMappedAppendBaseline(
            directory.path(), JmhSettings.SEGMENT_BYTES, SEGMENT_POOL, JmhSettings.value());
    }

    @TearDown(Level.Trial)
    public void deleteSegments()
    {
        baseline.close();
        directory.close();
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long rawAppend()
    {
        return baseline.append(BATCH, System.currentTimeMillis());
    }
}
