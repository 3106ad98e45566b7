package io.spool.perf.bench;

import io.spool.log.LogConfig;
import io.spool.perf.baseline.RawMappedAppendBaseline;
import io.spool.perf.report.BenchResult;
import io.spool.perf.report.BenchRun;
import io.spool.perf.report.LatencyDistribution;
import io.spool.perf.report.LatencySummary;
import io.spool.perf.report.Throughput;

import java.io.PrintWriter;
import java.util.List;

/**
 * {@code spool bench ingest}: the records published through the ingest pipeline and timed until the last confirm,
 * with the raw mapped append of as many records timed just before and just after, so that a change of load on a
 * busy machine during the run weighs on the baseline as it does on the pipeline. Each part writes into its own
 * fresh directory, deleted when it is done. Stateless: concurrent runs are safe, but they measure each other.
 */
public final class IngestBench
{
    public static final String NAME = "ingest";
    /**
     * Records of an untimed run into a log of its own before the measured one: otherwise the measured run, under a
     * second long at the default size, carries the JIT compiling the producer's and the pipeline's paths, while
     * the raw append's single loop compiles within its first milliseconds.
     */
    static final long WARM_UP_RECORDS = 1_000_000;

    private IngestBench()
    {
    }

    /**
     * @param baselinePages how the raw append readies its pages: {@link RawMappedAppendBaseline.Pages#PREPARED} is
     *                      the yardstick; {@link RawMappedAppendBaseline.Pages#FRESH} makes it pay the page faults
     *                      the pipeline pays on its fresh segments.
     * @param progressOut   where a progress line goes during long runs.
     */
    public static BenchRun run(final BenchSettings settings, final RawMappedAppendBaseline.Pages baselinePages,
        final PrintWriter progressOut) throws InterruptedException
    {
        ingestOnce(settings.withRecords(Math.min(settings.records(), WARM_UP_RECORDS)), NAME + " warm-up", progressOut);
        final Throughput before = rawAppend(settings, baselinePages);
        final IngestRun.Outcome outcome = ingestOnce(settings, NAME, progressOut);
        final Throughput after = rawAppend(settings, baselinePages);

        final BenchResult result = new BenchResult(NAME, settings.partitions(), settings.producers(),
            settings.durability().toString(),
            new Throughput(IngestRun.PIPELINE, settings.records(), settings.payloadBytes(), outcome.elapsedNanos()),
            new Throughput(RawBaselineRun.appendName(baselinePages) + ", before and after", before.records() + after.records(),
                settings.payloadBytes(), before.elapsedNanos() + after.elapsedNanos()),
            "publish to confirm, per batch of " + settings.batchSize(),
            LatencySummary.ofNanos(outcome.latencyNanos()),
            outcome.fsyncs());
        return new BenchRun(result, List.of(outcome.throughput()), LatencyDistribution.ofNanos(outcome.latencyNanos()));
    }

    private static IngestRun.Outcome ingestOnce(final BenchSettings settings, final String task,
        final PrintWriter progressOut) throws InterruptedException
    {
        try (ScratchDirectory directory = ScratchDirectory.create(settings.dataDirectory(), "bench-ingest");
            IngestRun run = IngestRun.onLogs(directory.path(), settings))
        {
            return run.ingest(task, progressOut);
        }
    }

    private static Throughput rawAppend(final BenchSettings settings, final RawMappedAppendBaseline.Pages pages)
    {
        try (ScratchDirectory directory = ScratchDirectory.create(settings.dataDirectory(), "bench-raw-append");
            RawBaselineRun raw = new RawBaselineRun(directory.path(), settings.baselineRecords(), settings.value(),
                LogConfig.DEFAULT_SEGMENT_BYTES, settings.batchSize(), pages))
        {
            return raw.measureAppend();
        }
    }
}
