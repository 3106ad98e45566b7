package io.spool.perf.bench;

import io.spool.log.LogConfig;
import io.spool.perf.report.BenchResult;
import io.spool.perf.report.LatencySummary;
import io.spool.perf.report.Throughput;

import java.io.PrintWriter;

/**
 * {@code spool bench ingest}: the raw mapped append, then the same records published through the ingest pipeline
 * and timed until the last confirm. Each part writes into its own fresh directory, deleted when it is done.
 * Stateless: concurrent runs are safe, but they measure each other.
 */
public final class IngestBench
{
    public static final String NAME = "ingest";

    private IngestBench()
    {
    }

    /** @param progressOut where a progress line goes during long runs. */
    public static BenchResult run(final BenchSettings settings, final PrintWriter progressOut)
        throws InterruptedException
    {
        final Throughput baseline;
        try (ScratchDirectory directory = ScratchDirectory.create(settings.dataDirectory(), "bench-raw-append");
            RawBaselineRun raw = new RawBaselineRun(directory.path(),
                settings.baselineRecords(), settings.value(),
                LogConfig.DEFAULT_SEGMENT_BYTES, settings.batchSize()))
        {
            baseline = raw.measureAppend();
        }

        try (ScratchDirectory directory = ScratchDirectory.create(settings.dataDirectory(), "bench-ingest");
            IngestRun run = new IngestRun(directory.path(), settings))
        {
            final IngestRun.Outcome outcome = run.ingest(NAME, progressOut);
            return new BenchResult(NAME, settings.partitions(), settings.producers(),
                settings.durability().toString(),
                new Throughput("spool ingest pipeline", settings.records(), settings.payloadBytes(),
                    outcome.elapsedNanos()),
                baseline,
                "publish to confirm, per batch of " + settings.batchSize(),
                LatencySummary.ofNanos(outcome.latencyNanos()),
                outcome.fsyncs());
        }
    }
}
