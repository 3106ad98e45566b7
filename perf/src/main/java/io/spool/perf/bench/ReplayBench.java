package io.spool.perf.bench;

import io.spool.log.LogConfig;
import io.spool.perf.report.BenchResult;
import io.spool.perf.report.LatencySummary;
import io.spool.perf.report.Throughput;
import org.HdrHistogram.AtomicHistogram;

import java.io.PrintWriter;

/**
 * {@code spool bench replay}: the raw scan of raw-appended records, then the same number of records published
 * through the pipeline (not timed) and read back sequentially through {@link io.spool.log.LogReader}. Both reads
 * are timed on their second pass, over data in the page cache. Stateless.
 */
public final class ReplayBench
{
    public static final String NAME = "replay";

    private ReplayBench()
    {
    }

    /** @param progressOut where a progress line goes while the records are written. */
    public static BenchResult run(final BenchSettings settings, final PrintWriter progressOut)
        throws InterruptedException
    {
        final Throughput baseline;
        try (ScratchDirectory directory = ScratchDirectory.create(settings.dataDirectory(), "bench-raw-scan");
            RawBaselineRun raw = new RawBaselineRun(directory.path(),
                settings.baselineRecords(), settings.value(),
                LogConfig.DEFAULT_SEGMENT_BYTES, settings.batchSize()))
        {
            raw.measureAppend();
            baseline = raw.measureScan();
        }

        try (ScratchDirectory directory = ScratchDirectory.create(settings.dataDirectory(), "bench-replay");
            IngestRun run = new IngestRun(directory.path(), settings))
        {
            run.ingest(NAME + " (writing)", progressOut);
            try (ReplayLoop replay = new ReplayLoop(run.logs(), settings.batchSize()))
            {
                final AtomicHistogram pollNanos = LatencyHistograms.newHistogram();
                replay.replayAll(pollNanos);
                pollNanos.reset();

                final long start = System.nanoTime();
                final long records = replay.replayAll(pollNanos);
                final long elapsed = System.nanoTime() - start;
                if (records != settings.records())
                {
                    throw new IllegalStateException(
                        "replay read " + records + " records, " + settings.records() + " were written");
                }
                return new BenchResult(NAME, settings.partitions(), settings.producers(),
                    settings.durability().toString(),
                    new Throughput("spool LogReader replay", records, settings.payloadBytes(), Math.max(1, elapsed)),
                    baseline,
                    "poll of up to " + settings.batchSize() + " records",
                    LatencySummary.ofNanos(pollNanos),
                    BenchResult.FSYNCS_NOT_COUNTED);
            }
        }
    }
}
