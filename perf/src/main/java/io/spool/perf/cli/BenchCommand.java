package io.spool.perf.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code spool bench}: benchmarks that report each figure beside its raw baseline measured in the same run. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "Benchmarks; each prints its raw baseline from the same run and the ratio.",
    subcommands = {IngestCommand.class, ReplayCommand.class, QueueCommand.class, E2eCommand.class,
        WireCommand.class, KafkaCommand.class, SqsCommand.class, ClusterBenchCommand.class})
final class BenchCommand implements Runnable
{
    @Spec
    CommandSpec spec;

    @Override
    public void run()
    {
        throw new ParameterException(spec.commandLine(), "a benchmark is needed: ingest, replay, queue, e2e, wire, kafka, sqs or cluster");
    }
}
