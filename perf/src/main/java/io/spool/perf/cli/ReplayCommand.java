package io.spool.perf.cli;

import io.spool.perf.bench.ChroniclePeer;
import io.spool.perf.bench.ReplayBench;
import io.spool.perf.report.BenchRun;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;

@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description = {
        "Writes records through the pipeline, then reads them back from the start of every partition through "
            + "LogReader (or a StreamConsumer, with --via stream), beside the raw scan of the same number of "
            + "raw-appended records, or with --against chronicle beside Chronicle Queue's zero-copy tailer, in "
            + "alternating rounds (--rounds, --warmup-rounds).",
        "Prints records/s, MB/s (value bytes), the ratio to the baseline and poll latency percentiles."})
final class ReplayCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Mixin
    BenchOptions options;

    @Option(names = "--via", defaultValue = "log", paramLabel = "log|stream",
        converter = ViaConverter.class,
        description = "Replay bare logs through LogReader, or a topic through a StreamConsumer (default: "
            + "${DEFAULT-VALUE}).")
    ReplayBench.Via via;

    @Mixin
    PeerOptions peer;

    @Mixin
    RoundOptions rounds;

    @Override
    public Integer call() throws InterruptedException, IOException
    {
        final ChroniclePeer chronicle = peer.chronicle();
        final BenchRun run = chronicle == null ? ReplayBench.run(options.settings(), via, spec.commandLine().getErr()) :
            ReplayBench.runAgainstChronicle(options.settings(), via, chronicle, rounds.rounds, rounds.warmupRounds,
                spec.commandLine().getErr());
        BenchOutput.print(run.result(), options.output.json, spec.commandLine().getOut());
        BenchOutput.writeReport(options.output.report, List.of(run), spec);
        return 0;
    }

    static final class ViaConverter implements CommandLine.ITypeConverter<ReplayBench.Via>
    {
        @Override
        public ReplayBench.Via convert(final String value)
        {
            return switch (value)
            {
                case "log" -> ReplayBench.Via.LOG;
                case "stream" -> ReplayBench.Via.STREAM;
                default -> throw new CommandLine.TypeConversionException(
                    "expected log or stream, got '" + value + "'");
            };
        }
    }
}
