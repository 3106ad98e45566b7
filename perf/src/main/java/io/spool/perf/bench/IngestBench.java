package io.spool.perf.bench;

import io.spool.api.log.LogConfig;
import io.spool.perf.baseline.RawMappedAppendBaseline;
import io.spool.perf.report.BenchResult;
import io.spool.perf.report.BenchRun;
import io.spool.perf.report.LatencyDistribution;
import io.spool.perf.report.LatencySummary;
import io.spool.perf.report.RoundPair;
import io.spool.perf.report.Throughput;
import org.HdrHistogram.AtomicHistogram;

import java.io.PrintWriter;
import java.util.ArrayList;
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

    /**
     * The records published through the pipeline and appended by Chronicle Queue's appender in a forked JVM
     * ({@link ChroniclePeer}), in alternating rounds whose first side takes turns, after {@code warmupRounds}
     * untimed rounds of Spool's. Chronicle has one appender: with several producers and partitions, Spool's side
     * spreads the same number of records over them.
     */
    public static BenchRun runAgainstChronicle(final BenchSettings settings, final ChroniclePeer chronicle,
        final int rounds, final int warmupRounds, final PrintWriter progressOut) throws InterruptedException
    {
        if (rounds < 1 || warmupRounds < 0)
        {
            throw new IllegalArgumentException("--rounds must be at least 1 and --warmup-rounds at least 0, got " +
                rounds + " and " + warmupRounds);
        }
        ingestOnce(settings.withRecords(Math.min(settings.records(), WARM_UP_RECORDS)), NAME + " warm-up", progressOut);
        for (int i = 0; i < warmupRounds; i++)
        {
            ingestOnce(settings, NAME + " warm-up round " + (i + 1), progressOut);
        }
        final List<RoundPair> pairs = new ArrayList<>();
        final AtomicHistogram latencyNanos = LatencyHistograms.newHistogram();
        long fsyncs = 0;
        IngestRun.Outcome last = null;
        for (int round = 0; round < rounds; round++)
        {
            final boolean spoolFirst = round % 2 == 0;
            Throughput peer = spoolFirst ? null : chronicleAppend(settings, chronicle);
            last = ingestOnce(settings, NAME + " round " + (round + 1), progressOut);
            if (spoolFirst)
            {
                peer = chronicleAppend(settings, chronicle);
            }
            latencyNanos.add(last.latencyNanos());
            fsyncs += last.fsyncs();
            pairs.add(new RoundPair(new Throughput(IngestRun.PIPELINE, settings.records(), settings.payloadBytes(),
                last.elapsedNanos()), peer, spoolFirst));
        }
        final BenchResult result = new BenchResult(NAME, settings.partitions(), settings.producers(),
            settings.durability().toString(),
            sum(IngestRun.PIPELINE + ", " + rounds + " rounds", pairs, true),
            sum(ChroniclePeer.APPENDER + ", " + rounds + " alternating rounds", pairs, false),
            "publish to confirm, per batch of " + settings.batchSize(),
            LatencySummary.ofNanos(latencyNanos), fsyncs, pairs);
        return new BenchRun(result, List.of(last.throughput()), LatencyDistribution.ofNanos(latencyNanos));
    }

    private static Throughput chronicleAppend(final BenchSettings settings, final ChroniclePeer chronicle)
        throws InterruptedException
    {
        try (ScratchDirectory directory = ScratchDirectory.create(settings.dataDirectory(), "bench-chronicle"))
        {
            return chronicle.run(settings.records(), settings.payloadBytes(), directory.path()).append();
        }
    }

    /** One side's rounds added up: all their records over all their time. */
    static Throughput sum(final String name, final List<RoundPair> pairs, final boolean spool)
    {
        long records = 0;
        long nanos = 0;
        int valueBytes = 0;
        for (final RoundPair pair : pairs)
        {
            final Throughput side = spool ? pair.measured() : pair.baseline();
            records += side.records();
            nanos += side.elapsedNanos();
            valueBytes = side.valueBytes();
        }
        return new Throughput(name, records, valueBytes, nanos);
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
