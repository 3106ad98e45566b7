package io.spool.perf.cli;

import io.spool.perf.bench.WireBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
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

    @Mixin
    RoundOptions rounds;

    @Mixin
    RunOutputOptions output;

    @Override
    public Integer call() throws IOException
    {
        return BenchOutput.runAndPrint(() -> WireBench.run(new WireBench.Settings(output.dataDir, records,
            payloadBytes, batchBytes, rounds.rounds, rounds.warmupRounds), spec.commandLine().getErr()), output, spec);
    }
}
