package io.spool.perf.jmh;

import io.spool.perf.baseline.RawMappedAppendBaseline;
import io.spool.perf.baseline.RawMappedScanBaseline;
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
import org.openjdk.jmh.infra.Blackhole;

import java.util.concurrent.TimeUnit;

/**
 * The replay yardstick: records per second of {@link RawMappedScanBaseline} over {@link #RECORDS} records written
 * once by the raw append. One operation is one record.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Fork(1)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
public class RawScanBenchmark
{
    static final int RECORDS = 1_000_000;

    private ScratchDirectory directory;
    private RawMappedScanBaseline scan;

    @Setup(Level.Trial)
    public void writeRecords()
    {
        directory = ScratchDirectory.create(JmhSettings.dataDirectory(), "jmh-raw-scan");
        final int segments = RawMappedAppendBaseline.segmentsFor(
            RECORDS, JmhSettings.VALUE_BYTES, JmhSettings.SEGMENT_BYTES);
        try (RawMappedAppendBaseline append = new RawMappedAppendBaseline(
            directory.path(), JmhSettings.SEGMENT_BYTES, segments, JmhSettings.value()))
        {
            append.append(RECORDS, System.currentTimeMillis());
            scan = new RawMappedScanBaseline(append.segmentFiles());
        }
    }

    @TearDown(Level.Trial)
    public void deleteRecords()
    {
        scan.close();
        directory.close();
    }

    @Benchmark
    @OperationsPerInvocation(RECORDS)
    public void rawScan(final Blackhole blackhole)
    {
        blackhole.consume(scan.scan());
        blackhole.consume(scan.checksum());
    }
}
