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
 * are timed the same way by {@link PassTimer}, over data in the page cache. Stateless.
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
                final PassTimer.Timing timing = PassTimer.time(
                    "replay", () -> replay.replayAll(pollNanos), settings.records(), pollNanos::reset);
                return new BenchResult(NAME, settings.partitions(), settings.producers(),
                    settings.durability().toString(),
                    new Throughput("spool LogReader replay, mean of " + timing.passes() + " passes",
                        settings.records(), settings.payloadBytes(), timing.meanPassNanos()),
                    baseline,
                    "poll of up to " + settings.batchSize() + " records",
                    LatencySummary.ofNanos(pollNanos),
                    BenchResult.FSYNCS_NOT_COUNTED);
            }
        }
    }
}
