package io.spool.perf.cli;

import io.spool.perf.bench.QueueBench;
import io.spool.perf.bench.QueueFeaturesBench;
import io.spool.perf.bench.RemoteLoad;
import io.spool.perf.bench.RemoteQueueBench;
import io.spool.perf.report.BenchRun;
import io.spool.wire.client.ProducerConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

@Command(
    name = "queue",
    mixinStandardHelpOptions = true,
    description = {
        "Drains a topic as a queue (push consumers acking every delivery) for each consumer count and prefetch, "
            + "beside the same records read as a stream in the same run.",
        "Prints messages/s, the ratio to the stream poll rate and publish-to-ack latency percentiles; with --json "
            + "one JSON object per line, one line per configuration.",
        "With --features, instead: receive + ack with ordered message groups and with every message delayed, each "
            + "beside plain receive + ack in the same rounds.",
        "Each configuration runs in a JVM of its own, so the code the JIT compiled for one does not run another; "
            + "--no-fork runs them all in this JVM, as --report and --features do.",
        "With --server HOST:PORT, instead: for each consumer count and prefetch, publishes to that running server "
            + "for --duration, at --rate or as fast as it takes them, while the consumers, one connection each, take "
            + "the messages from a subscription and ack every delivery (--consumer-mode push: with the prefetch; "
            + "pull: receiving up to prefetch at a time); prints the acked rate beside the confirmed one and "
            + "publish-to-delivery latencies, with a progress line every few seconds."})
final class QueueCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Option(names = "--records", defaultValue = "1000000", paramLabel = "N", description = "Records per configuration "
        + "(default: ${DEFAULT-VALUE}); with --server, the most to publish per configuration (default: as many as "
        + "--duration takes).")
    long records;

    @Option(names = "--payload-bytes", defaultValue = "100", paramLabel = "BYTES",
        description = "Value size of each record (default: ${DEFAULT-VALUE}).")
    int payloadBytes;

    @Option(names = "--partitions", defaultValue = "1", paramLabel = "N",
        description = "Partitions of the topic (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--consumers", defaultValue = "1,4", split = ",", paramLabel = "N[,N...]",
        description = "Consumer counts to run (default: ${DEFAULT-VALUE}).")
    int[] consumers;

    @Option(names = "--prefetch", defaultValue = "1,100,1000", split = ",", paramLabel = "N[,N...]",
        description = "Prefetch values to run (default: ${DEFAULT-VALUE}).")
    int[] prefetch;

    @Option(names = "--features", description = "Measure what message groups and delays cost on receive + ack, "
        + "beside plain receive + ack, instead of the consumer and prefetch configurations.")
    boolean features;

    @Option(names = "--fork", negatable = true, defaultValue = "true", fallbackValue = "true",
        description = "Run each configuration in a JVM of its own (default: ${DEFAULT-VALUE}).")
    boolean fork;

    @Option(names = "--consumer-mode", defaultValue = "push", paramLabel = "MODE",
        description = "With --server: push consumers with a prefetch (default) or pull consumers that receive.")
    String consumerMode;

    @Mixin
    RemoteBenchOptions remote;

    @Mixin
    RunOutputOptions output;

    @Override
    public Integer call() throws InterruptedException, IOException
    {
        if (records < 1 || payloadBytes < Long.BYTES || partitions < 1)
        {
            throw new ParameterException(spec.commandLine(),
                "--records and --partitions must be at least 1 and --payload-bytes at least 8 (the publish time)");
        }
        remote.check(spec.commandLine(), List.of("--features", "--fork", "--data-dir"),
            List.of("--consumer-mode"));
        if (remote.remote())
        {
            final RemoteQueueBench.Mode mode = Choices.parse(spec.commandLine(), "--consumer-mode", consumerMode,
                RemoteQueueBench.Mode.values());
            final long cap = spec.commandLine().getParseResult().hasMatchedOption("--records") ? records : 0;
            final RemoteLoad load = remote.load(spec.commandLine(), partitions, payloadBytes,
                ProducerConfig.defaults().batchBytes(), cap);
            return BenchOutput.runAndPrint(() -> RemoteQueueBench.run(load, mode, consumers, prefetch,
                spec.commandLine().getErr()), output, spec);
        }
        if (fork && !features && output.report == null && consumers.length * prefetch.length > 1)
        {
            return runForked(ConfigurationForks.ofThisJvm(spec.commandLine().getOut(), spec.commandLine().getErr()));
        }
        final List<BenchRun> runs = features ?
            QueueFeaturesBench.run(output.dataDir, (int)Math.min(records, Integer.MAX_VALUE), payloadBytes,
                QueueBench.ROUNDS, spec.commandLine().getErr()) :
            QueueBench.run(output.dataDir, records, payloadBytes, partitions, consumers, prefetch,
                spec.commandLine().getErr());
        return BenchOutput.runAndPrint(() -> runs, output, spec);
    }

    /** Each configuration in a child JVM; stops at the first that fails, with its exit code. */
    int runForked(final ConfigurationForks forks) throws IOException, InterruptedException
    {
        for (final int consumerCount : consumers)
        {
            for (final int prefetchCount : prefetch)
            {
                final int exit = forks.run(configurationArguments(consumerCount, prefetchCount));
                if (exit != 0)
                {
                    spec.commandLine().getErr().println("bench queue: the run with " + consumerCount +
                        " consumer(s) at prefetch " + prefetchCount + " failed in its own JVM (exit code " + exit +
                        ")");
                    return exit;
                }
            }
        }
        return 0;
    }

    /** This command's arguments for one configuration, run in this JVM. */
    List<String> configurationArguments(final int consumerCount, final int prefetchCount)
    {
        final List<String> arguments = new ArrayList<>(List.of("bench", "queue", "--no-fork",
            "--records", Long.toString(records), "--payload-bytes", Integer.toString(payloadBytes),
            "--partitions", Integer.toString(partitions), "--consumers", Integer.toString(consumerCount),
            "--prefetch", Integer.toString(prefetchCount), "--data-dir", output.dataDir.toString()));
        if (output.json)
        {
            arguments.add("--json");
        }
        return arguments;
    }
}
