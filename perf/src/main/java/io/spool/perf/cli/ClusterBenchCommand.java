package io.spool.perf.cli;

import io.spool.perf.bench.ClusterBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.concurrent.Callable;

@Command(
    name = "cluster",
    mixinStandardHelpOptions = true,
    description = {
        "Publishes with confirms to a topic replicated on three local nodes (child JVMs on loopback) and, in the " +
            "same run, to the single-node engine, with the same batches and the same number unconfirmed; then " +
            "SIGKILLs the partition's leader --kills times, starting it again after each.",
        "Prints records/s of both and their ratio, and the failover time (kill to the first confirm from the new " +
            "leader) at p50, p90, p99 and max."})
final class ClusterBenchCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Option(names = "--records", defaultValue = "200000", paramLabel = "N",
        description = "Records per side (default: ${DEFAULT-VALUE}).")
    long records;

    @Option(names = "--batch", defaultValue = "100", paramLabel = "N",
        description = "Records per published batch (default: ${DEFAULT-VALUE}).")
    int batchRecords;

    @Option(names = "--payload-bytes", defaultValue = "256", paramLabel = "BYTES",
        description = "Value size of each record (default: ${DEFAULT-VALUE}).")
    int payloadBytes;

    @Option(names = "--in-flight", defaultValue = "32", paramLabel = "N",
        description = "Batches sent and not yet confirmed, at most (default: ${DEFAULT-VALUE}).")
    int inFlight;

    @Option(names = "--kills", defaultValue = "20", paramLabel = "N",
        description = "Leader kills to time; 0 measures throughput only (default: ${DEFAULT-VALUE}).")
    int kills;

    @Option(names = "--data-dir", defaultValue = "spool-bench", paramLabel = "DIR",
        description = "Where the scratch directories go, removed afterwards (default: ${DEFAULT-VALUE}).")
    Path dataDir;

    @Override
    public Integer call() throws InterruptedException
    {
        if (records < 1 || batchRecords < 1 || payloadBytes < 0 || inFlight < 1 || kills < 0)
        {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--records, --batch and " +
                "--in-flight must be at least 1, --payload-bytes and --kills at least 0");
        }
        ClusterBench.run(new ClusterBench.Settings(dataDir, records, batchRecords, payloadBytes, inFlight, kills),
            spec.commandLine().getOut());
        return 0;
    }
}
