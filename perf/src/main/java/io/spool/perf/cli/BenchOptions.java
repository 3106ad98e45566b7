package io.spool.perf.cli;

import io.spool.api.log.Durability;
import io.spool.perf.bench.BenchSettings;
import io.spool.perf.bench.RawBaselineRun;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The options every {@code spool bench} subcommand takes. */
final class BenchOptions
{
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--records", defaultValue = "5000000", paramLabel = "N",
        description = "Records to write (default: ${DEFAULT-VALUE}).")
    long records;

    @Option(names = "--baseline-records", paramLabel = "N",
        description = "Records the raw baseline is measured over (default: --records, and at least 256 MiB of "
            + "frames so that the baseline loop runs warm).")
    Long baselineRecords;

    @Option(names = "--payload-bytes", defaultValue = "100", paramLabel = "BYTES",
        description = "Value size of each record; keys are null, no headers (default: ${DEFAULT-VALUE}).")
    int payloadBytes;

    @Option(names = "--partitions", defaultValue = "1", paramLabel = "N",
        description = "Logs the records are spread over (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--producers", defaultValue = "1", paramLabel = "N",
        description = "Producing threads (default: ${DEFAULT-VALUE}).")
    int producers;

    @Option(names = "--pipelines", defaultValue = "1", paramLabel = "N",
        description = "Ingest pipelines the partitions are spread over (default: ${DEFAULT-VALUE}).")
    int pipelines;

    @Option(names = "--durability", defaultValue = "none", paramLabel = "none|every-batch|interval:MS",
        converter = DurabilityConverter.class,
        description = "When appends reach the disk before their confirm (default: ${DEFAULT-VALUE}).")
    Durability durability;

    @Option(names = "--batch", defaultValue = "256", paramLabel = "N",
        description = "Records a producer publishes with one claim and one clock read; also records per poll in "
            + "a replay (default: ${DEFAULT-VALUE}).")
    int batchSize;

    @Option(names = "--in-flight", defaultValue = "8", paramLabel = "BATCHES",
        description = "Unconfirmed batches a producer may have before it parks until a confirm; keep "
            + "in-flight x producers x the ring slots of a batch (one per 4 KiB of frames) within the ring (4096) "
            + "or producers spin on the full ring; "
            + "--batch 1 --in-flight 1 makes each producer wait for every confirm (default: ${DEFAULT-VALUE}).")
    int maxInFlightBatches;

    @Mixin
    RunOutputOptions output;

    /** @throws ParameterException naming the option when the values cannot run. */
    BenchSettings settings()
    {
        try
        {
            final long rawRecords =
                baselineRecords == null ? RawBaselineRun.baselineRecords(records, payloadBytes) : baselineRecords;
            return new BenchSettings(records, rawRecords, payloadBytes, partitions, producers, pipelines, durability,
                batchSize, maxInFlightBatches, output.dataDir);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage(), ex);
        }
    }
}
