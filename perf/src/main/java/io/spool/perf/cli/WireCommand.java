package io.spool.perf.cli;

import io.spool.perf.bench.RemoteLoad;
import io.spool.perf.bench.RemoteStreamBench;
import io.spool.perf.bench.WireBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
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
            + "stderr as it ends; with --json one JSON object for publish and one for consume.",
        "With --server HOST:PORT, instead: publishes to that running server for --duration, at --rate or as fast "
            + "as it takes them, while a stream consumer on a second connection fetches them as they come; prints "
            + "the confirmed rate beside the offered or target rate, and the consumed rate beside the confirmed one, "
            + "with publish-to-confirm and publish-to-delivery latencies, and a progress line every few seconds."})
final class WireCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Option(names = "--records", defaultValue = "2000000", paramLabel = "N",
        description = "Records per side and round (default: ${DEFAULT-VALUE}); with --server, the most to publish " +
            "(default: as many as --duration takes).")
    long records;

    @Option(names = "--payload-bytes", defaultValue = "100", paramLabel = "BYTES",
        description = "Value size of each record (default: ${DEFAULT-VALUE}).")
    int payloadBytes;

    @Option(names = "--batch-bytes", defaultValue = "262144", paramLabel = "BYTES",
        description = "The remote producer's batch size (default: ${DEFAULT-VALUE}).")
    int batchBytes;

    @Mixin
    RoundOptions rounds;

    @Option(names = "--partitions", defaultValue = "1", paramLabel = "N",
        description = "With --server: partitions of the run's topic, published to in turn (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Mixin
    RemoteBenchOptions remote;

    @Mixin
    RunOutputOptions output;

    @Override
    public Integer call() throws IOException
    {
        remote.check(spec.commandLine(), List.of("--rounds", "--warmup-rounds", "--data-dir"),
            List.of("--partitions"));
        if (remote.remote())
        {
            final long cap = spec.commandLine().getParseResult().hasMatchedOption("--records") ? records : 0;
            final RemoteLoad load = remote.load(spec.commandLine(), partitions, payloadBytes, batchBytes, cap);
            return BenchOutput.runAndPrint(() -> RemoteStreamBench.run(load, spec.commandLine().getErr()), output,
                spec);
        }
        return BenchOutput.runAndPrint(() -> WireBench.run(new WireBench.Settings(output.dataDir, records,
            payloadBytes, batchBytes, rounds.rounds, rounds.warmupRounds), spec.commandLine().getErr()), output, spec);
    }
}
