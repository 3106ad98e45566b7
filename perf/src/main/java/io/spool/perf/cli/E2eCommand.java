package io.spool.perf.cli;

import io.spool.perf.bench.E2eBench;
import io.spool.perf.bench.RawBaselineRun;
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
    name = "e2e",
    mixinStandardHelpOptions = true,
    description = {
        "Publishes records through a client to a server on loopback (in this process) while a second client polls "
            + "them as a stream, for each partition count; beside the raw mapped append of the same run.",
        "Prints records/s from the first publish to the last poll, the ratio to the raw append, and "
            + "publish-to-poll latency percentiles per record; with --json one JSON object per partition count."})
final class E2eCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Option(names = "--records", defaultValue = "1000000", paramLabel = "N",
        description = "Records per partition count (default: ${DEFAULT-VALUE}).")
    long records;

    @Option(names = "--baseline-records", paramLabel = "N",
        description = "Records the raw append is timed over, before and after each run (default: --records, and "
            + "at least 256 MiB of frames).")
    Long baselineRecords;

    @Option(names = "--payload-bytes", defaultValue = "100", paramLabel = "BYTES",
        description = "Value size of each record, at least 8 (the publish time) (default: ${DEFAULT-VALUE}).")
    int payloadBytes;

    @Option(names = "--partitions", defaultValue = "1,8", split = ",", paramLabel = "N[,N...]",
        description = "Partition counts to run (default: ${DEFAULT-VALUE}).")
    int[] partitions;

    @Option(names = "--rate", defaultValue = "0", paramLabel = "RECORDS_PER_SEC",
        description = "Publish at this pace, each record stamped with when it was due; 0 publishes as fast as the "
            + "producer can, which measures queueing more than the path (default: ${DEFAULT-VALUE}).")
    long recordsPerSec;

    @Mixin
    RunOutputOptions output;

    @Override
    public Integer call() throws InterruptedException, IOException
    {
        final List<BenchRun> runs;
        try
        {
            runs = E2eBench.run(output.dataDir, records, baselineRecords == null ?
                    RawBaselineRun.baselineRecords(records, payloadBytes) : baselineRecords,
                payloadBytes, partitions, recordsPerSec, spec.commandLine().getErr());
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
