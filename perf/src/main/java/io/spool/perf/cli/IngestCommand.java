package io.spool.perf.cli;

import io.spool.perf.bench.IngestBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(
    name = "ingest",
    mixinStandardHelpOptions = true,
    description = {
        "Publishes records through the ingest pipeline until the last confirm, beside the raw mapped append of "
            + "the same records (one thread framing them into pre-allocated mapped segments).",
        "Prints records/s, MB/s (value bytes), the ratio to the baseline, publish-to-confirm latency "
            + "percentiles and fsyncs."})
final class IngestCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Mixin
    BenchOptions options;

    @Override
    public Integer call() throws InterruptedException
    {
        BenchOutput.print(IngestBench.run(options.settings(), spec.commandLine().getErr()), options.json,
            spec.commandLine().getOut());
        return 0;
    }
}
