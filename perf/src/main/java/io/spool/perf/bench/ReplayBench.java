package io.spool.perf.bench;

import io.spool.api.log.LogConfig;
import io.spool.perf.baseline.RawMappedScanBaseline;
import io.spool.perf.report.BenchResult;
import io.spool.perf.report.BenchRun;
import io.spool.perf.report.LatencyDistribution;
import io.spool.perf.report.LatencySummary;
import io.spool.perf.report.RoundPair;
import io.spool.perf.report.Throughput;
import io.spool.perf.report.ThroughputSeries;
import org.HdrHistogram.AtomicHistogram;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code spool bench replay}: records raw-appended for the raw scan, the same number published through the
 * pipeline (neither timed), then the raw scan and the sequential replay, timed in alternating passes by
 * {@link PassTimer} over data in the page cache. The replay reads bare logs through {@link io.spool.log.LogReader},
 * or a topic through a {@link io.spool.stream.StreamConsumer}. Stateless.
 */
public final class ReplayBench
{
    public static final String NAME = "replay";

    /** What the replay reads through. */
    public enum Via
    {
        LOG("spool LogReader replay"),
        STREAM("spool StreamConsumer replay");

        private final String description;

        Via(final String description)
        {
            this.description = description;
        }
    }

    private ReplayBench()
    {
    }

    /** @param progressOut where a progress line goes while the records are written. */
    public static BenchRun run(final BenchSettings settings, final Via via, final PrintWriter progressOut)
        throws InterruptedException
    {
        try (ScratchDirectory rawDirectory = ScratchDirectory.create(settings.dataDirectory(), "bench-raw-scan");
            RawBaselineRun raw = new RawBaselineRun(rawDirectory.path(), settings.baselineRecords(),
                settings.value(), LogConfig.DEFAULT_SEGMENT_BYTES, settings.batchSize());
            ScratchDirectory logDirectory = ScratchDirectory.create(settings.dataDirectory(), "bench-replay");
            IngestRun run = via == Via.LOG ? IngestRun.onLogs(logDirectory.path(), settings) :
                IngestRun.onTopic(logDirectory.path(), settings))
        {
            raw.measureAppend();
            run.ingest(NAME + " (writing)", progressOut);

            final AtomicHistogram pollNanos = LatencyHistograms.newHistogram();
            try (RawMappedScanBaseline scan = raw.openScan();
                Replay replay = via == Via.LOG ? new ReplayLoop(run.logs(), settings.batchSize()) :
                    new StreamReplayLoop(run.engine(), IngestRun.TOPIC, settings.batchSize()))
            {
                final PassTimer.Timing[] timings = PassTimer.timeAlternately(
                    new PassTimer.Reader(RawBaselineRun.RAW_SCAN, scan::scan, raw.records(), () -> { }),
                    new PassTimer.Reader(via.description, () -> replay.replayAll(pollNanos), settings.records(),
                        pollNanos::reset));
                final BenchResult result = new BenchResult(NAME, settings.partitions(), settings.producers(),
                    settings.durability().toString(),
                    new Throughput(via.description + ", mean of " + timings[1].passes() + " passes",
                        settings.records(), settings.payloadBytes(), timings[1].meanPassNanos()),
                    new Throughput(RawBaselineRun.RAW_SCAN + ", mean of " + timings[0].passes() + " passes",
                        raw.records(), settings.payloadBytes(), timings[0].meanPassNanos()),
                    "poll of up to " + settings.batchSize() + " records",
                    LatencySummary.ofNanos(pollNanos),
                    BenchResult.FSYNCS_NOT_COUNTED);
                return new BenchRun(result, List.of(timings[1].throughput(), timings[0].throughput()),
                    LatencyDistribution.ofNanos(pollNanos));
            }
        }
    }

    /**
     * The records written through the pipeline and read back once from the start, beside Chronicle Queue's
     * zero-copy tailer reading as many records its appender wrote in a forked JVM ({@link ChroniclePeer}), in
     * alternating rounds whose first side takes turns, after {@code warmupRounds} untimed rounds of Spool's. Each
     * side writes afresh every round and reads what it wrote once, from the page cache, as Chronicle's benchmark
     * does.
     */
    public static BenchRun runAgainstChronicle(final BenchSettings settings, final Via via,
        final ChroniclePeer chronicle, final int rounds, final int warmupRounds, final PrintWriter progressOut)
        throws InterruptedException
    {
        if (rounds < 1 || warmupRounds < 0)
        {
            throw new IllegalArgumentException("--rounds must be at least 1 and --warmup-rounds at least 0, got " +
                rounds + " and " + warmupRounds);
        }
        final AtomicHistogram pollNanos = LatencyHistograms.newHistogram();
        for (int i = 0; i < warmupRounds; i++)
        {
            replayOnce(settings, via, pollNanos, NAME + " warm-up round " + (i + 1), progressOut);
        }
        pollNanos.reset();
        final List<RoundPair> pairs = new ArrayList<>();
        for (int round = 0; round < rounds; round++)
        {
            final boolean spoolFirst = round % 2 == 0;
            Throughput peer = spoolFirst ? null : chronicleTail(settings, chronicle);
            final Throughput spool = replayOnce(settings, via, pollNanos, NAME + " round " + (round + 1), progressOut);
            if (spoolFirst)
            {
                peer = chronicleTail(settings, chronicle);
            }
            pairs.add(new RoundPair(spool, peer, spoolFirst));
        }
        final BenchResult result = new BenchResult(NAME, settings.partitions(), settings.producers(),
            settings.durability().toString(),
            IngestBench.sum(via.description + ", one pass a round, " + rounds + " rounds", pairs, true),
            IngestBench.sum(ChroniclePeer.TAILER + ", " + rounds + " alternating rounds", pairs, false),
            "poll of up to " + settings.batchSize() + " records",
            LatencySummary.ofNanos(pollNanos), BenchResult.FSYNCS_NOT_COUNTED, pairs);
        final double[] seconds = new double[pairs.size()];
        final double[] perSec = new double[pairs.size()];
        double elapsed = 0;
        for (int i = 0; i < pairs.size(); i++)
        {
            elapsed += pairs.get(i).measured().elapsedNanos() / 1e9;
            seconds[i] = elapsed;
            perSec[i] = pairs.get(i).measured().recordsPerSec();
        }
        return new BenchRun(result, List.of(new ThroughputSeries(via.description + ", one point a round", seconds,
            perSec)), LatencyDistribution.ofNanos(pollNanos));
    }

    /** Writes the records afresh, then times one replay of them from the start. */
    private static Throughput replayOnce(final BenchSettings settings, final Via via, final AtomicHistogram pollNanos,
        final String task, final PrintWriter progressOut) throws InterruptedException
    {
        try (ScratchDirectory logDirectory = ScratchDirectory.create(settings.dataDirectory(), "bench-replay");
            IngestRun run = via == Via.LOG ? IngestRun.onLogs(logDirectory.path(), settings) :
                IngestRun.onTopic(logDirectory.path(), settings))
        {
            run.ingest(task + " (writing)", progressOut);
            try (Replay replay = via == Via.LOG ? new ReplayLoop(run.logs(), settings.batchSize()) :
                new StreamReplayLoop(run.engine(), IngestRun.TOPIC, settings.batchSize()))
            {
                final long start = System.nanoTime();
                final long read = replay.replayAll(pollNanos);
                final long elapsed = System.nanoTime() - start;
                if (read != settings.records())
                {
                    throw new IllegalStateException("the replay read " + read + " of " + settings.records() + " records");
                }
                return new Throughput(via.description, read, settings.payloadBytes(), Math.max(1, elapsed));
            }
        }
    }

    private static Throughput chronicleTail(final BenchSettings settings, final ChroniclePeer chronicle)
        throws InterruptedException
    {
        try (ScratchDirectory directory = ScratchDirectory.create(settings.dataDirectory(), "bench-chronicle"))
        {
            return chronicle.run(settings.records(), settings.payloadBytes(), directory.path()).tail();
        }
    }
}
