package io.spool.perf.bench;

import io.spool.log.LogConfig;
import io.spool.perf.baseline.RawMappedScanBaseline;
import io.spool.perf.report.BenchResult;
import io.spool.perf.report.BenchRun;
import io.spool.perf.report.LatencyDistribution;
import io.spool.perf.report.LatencySummary;
import io.spool.perf.report.Throughput;
import org.HdrHistogram.AtomicHistogram;

import java.io.PrintWriter;
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
}
