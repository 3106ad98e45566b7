package io.spool.perf.cli;

import io.spool.perf.baseline.RawMappedAppendBaseline;
import io.spool.perf.bench.ChroniclePeer;
import io.spool.perf.bench.IngestBench;
import io.spool.perf.report.BenchRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;

@Command(
    name = "ingest",
    mixinStandardHelpOptions = true,
    description = {
        "Publishes records through the ingest pipeline until the last confirm, beside the raw mapped append of "
            + "the same records (one thread framing them into pre-allocated mapped segments), or with --against "
            + "chronicle beside Chronicle Queue's appender, in alternating rounds (--rounds, --warmup-rounds).",
        "Prints records/s, MB/s (value bytes), the ratio to the baseline, publish-to-confirm latency "
            + "percentiles and fsyncs."})
final class IngestCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Mixin
    BenchOptions options;

    @Option(names = "--baseline-pages", defaultValue = "prepared", paramLabel = "prepared|allocated|fresh",
        converter = BaselinePagesConverter.class,
        description = "How the raw append baseline readies its segment pages: prepared (zero-filled and touched "
            + "before its timed loop: the yardstick), allocated (zero-filled but mapped fresh, so the loop takes a "
            + "minor fault per page) or fresh (sparse, as the log's own segments are, so the loop takes each page's "
            + "first-write fault itself) (default: ${DEFAULT-VALUE}).")
    RawMappedAppendBaseline.Pages baselinePages;

    @Mixin
    PeerOptions peer;

    @Mixin
    RoundOptions rounds;

    @Override
    public Integer call() throws InterruptedException, IOException
    {
        final ChroniclePeer chronicle = peer.chronicle();
        final BenchRun run = chronicle == null ?
            IngestBench.run(options.settings(), baselinePages, spec.commandLine().getErr()) :
            IngestBench.runAgainstChronicle(options.settings(), chronicle, rounds.rounds, rounds.warmupRounds,
                spec.commandLine().getErr());
        BenchOutput.print(run.result(), options.output.json, spec.commandLine().getOut());
        BenchOutput.writeReport(options.output.report, List.of(run), spec);
        return 0;
    }
}
