package io.spool.perf.cli;

import io.spool.perf.bench.ReplayBench;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description = {
        "Writes records through the pipeline, then reads them back from the start of every partition through "
            + "LogReader, beside the raw scan of the same number of raw-appended records.",
        "Prints records/s, MB/s (value bytes), the ratio to the baseline and poll latency percentiles."})
final class ReplayCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Mixin
    BenchOptions options;

    @Override
    public Integer call() throws InterruptedException
    {
        BenchOutput.print(ReplayBench.run(options.settings(), spec.commandLine().getErr()), options.json,
            spec.commandLine().getOut());
        return 0;
    }
}
