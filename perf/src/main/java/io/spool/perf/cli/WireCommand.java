package io.spool.perf.cli;

import io.spool.perf.bench.WireBench;
import io.spool.perf.report.BenchRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;

@Command(
    name = "wire",
    mixinStandardHelpOptions = true,
    description = {
        "Publishes records with confirms through one client connection to a server on loopback (in this process), "
            + "then reads them back by fetch, beside the embedded producer and stream consumer of the same server "
            + "doing the same in the same rounds.",
        "Prints records/s over the measured rounds and the ratio to the embedded engine, one round per line on "
            + "stderr as it ends; with --json one JSON object for publish and one for consume."})
final class WireCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Option(names = "--records", defaultValue = "2000000", paramLabel = "N",
        description = "Records per side and round (default: ${DEFAULT-VALUE}).")
    long records;

    @Option(names = "--payload-bytes", defaultValue = "100", paramLabel = "BYTES",
        description = "Value size of each record (default: ${DEFAULT-VALUE}).")
    int payloadBytes;

    @Option(names = "--batch-bytes", defaultValue = "262144", paramLabel = "BYTES",
        description = "The remote producer's batch size (default: ${DEFAULT-VALUE}).")
    int batchBytes;

    @Option(names = "--rounds", defaultValue = "5", paramLabel = "N",
        description = "Measured rounds (default: ${DEFAULT-VALUE}).")
    int rounds;

    @Option(names = "--warmup-rounds", defaultValue = "1", paramLabel = "N",
        description = "Rounds run first and not counted (default: ${DEFAULT-VALUE}).")
    int warmupRounds;

    @Mixin
    RunOutputOptions output;

    @Override
    public Integer call() throws IOException
    {
        final List<BenchRun> runs;
        try
        {
            runs = WireBench.run(new WireBench.Settings(output.dataDir, records, payloadBytes, batchBytes, rounds,
                warmupRounds), spec.commandLine().getErr());
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage(), ex);
        }
        for (final BenchRun run : runs)
        {
            BenchOutput.print(run.result(), output.json, spec.commandLine().getOut());
        }
        BenchOutput.writeReport(output.report, runs, spec);
        return 0;
    }
}
