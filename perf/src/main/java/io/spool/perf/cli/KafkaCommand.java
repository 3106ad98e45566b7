package io.spool.perf.cli;

import io.spool.perf.bench.KafkaBench;
import io.spool.perf.report.BenchRun;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.util.List;
import java.util.concurrent.Callable;

@Command(
    name = "kafka",
    mixinStandardHelpOptions = true,
    description = {
        "Runs Kafka's own perf tools (ProducerPerformance acks=1 and acks=all, ConsumerPerformance, " +
            "ShareConsumerPerformance; default client settings) against the Kafka listener of a server in this " +
            "process, then Spool's native protocol with the same records.",
        "The tools' own figures are printed as they give them; run ../shared/peers/peer kafka bench for Kafka's."})
final class KafkaCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Option(names = "--records", defaultValue = "1000000", paramLabel = "N",
        description = "Records each tool produces or consumes (default: ${DEFAULT-VALUE}).")
    long records;

    @Option(names = "--record-size", defaultValue = "100", paramLabel = "BYTES",
        description = "Value size of each record (default: ${DEFAULT-VALUE}).")
    int recordBytes;

    @Option(names = "--partitions", defaultValue = "1", paramLabel = "N",
        description = "Partitions of each benchmark topic (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--native", negatable = true, defaultValue = "true", fallbackValue = "true",
        description = "Also run Spool's native protocol with the same records (default: on; --no-native skips it).")
    boolean nativeProtocol;

    @Option(names = "--batch-storage",
        description = "Also measure Kafka batches converted into Spool records (what the listener does) against " +
            "kept as they arrive, produce and fetch, in ns per record.")
    boolean batchStorage;

    @Mixin
    RunOutputOptions output;

    @Override
    public Integer call() throws Exception
    {
        final List<BenchRun> runs;
        try
        {
            runs = KafkaBench.run(new KafkaBench.Settings(output.dataDir, records, recordBytes, partitions,
                nativeProtocol, batchStorage), spec.commandLine().getOut(), spec.commandLine().getErr());
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
