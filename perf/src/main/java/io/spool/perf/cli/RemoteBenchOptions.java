package io.spool.perf.cli;

import io.spool.api.log.Durability;
import io.spool.perf.bench.RemoteLoad;
import io.spool.wire.client.ClientConfig;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine;

import java.util.ArrayList;
import java.util.List;

/**
 * What a benchmark against a running server takes ({@code --server} and the rest): where the server is, and the
 * producer's pace and duration. Without {@code --server} the benchmark runs its own server in this process, as
 * before, and these options other than the server's are refused. Not thread-safe.
 */
final class RemoteBenchOptions
{
    /** The options only a run against a server reads. */
    private static final List<String> REMOTE_ONLY = List.of("--rate", "--duration", "--progress-interval",
        "--durability");

    @Mixin
    ServerOptions server;

    @Option(names = "--rate", paramLabel = "MSGS_PER_S", defaultValue = "0",
        description = "With --server: target records per second the producer publishes; 0 for as fast as the " +
            "server takes them (default). Latencies count from when each record was due.")
    double rate;

    @Option(names = "--duration", paramLabel = "DURATION", defaultValue = "30s", converter = Quantities.Millis.class,
        description = "With --server: how long the producer publishes, as 30s or 5m (default: ${DEFAULT-VALUE}); " +
            "--records given as well stops it at that many.")
    long durationMillis;

    @Option(names = "--progress-interval", paramLabel = "DURATION", defaultValue = "5s",
        converter = Quantities.Millis.class,
        description = "With --server: how often a progress line is printed on stderr (default: ${DEFAULT-VALUE}).")
    long progressMillis;

    @Option(names = "--durability", paramLabel = "POLICY", defaultValue = "none", converter = DurabilityConverter.class,
        description = "With --server: the durability of the run's topic (default: ${DEFAULT-VALUE}).")
    Durability durability;

    /** Whether the benchmark runs against a server the user named. */
    boolean remote()
    {
        return server.given();
    }

    /**
     * Refuses what does not fit where the benchmark runs: options of the run against a server (these and
     * {@code remoteOnly}) without {@code --server}, and {@code localOnly} ones with it.
     *
     * @throws ParameterException naming the option.
     */
    void check(final CommandLine commandLine, final List<String> localOnly, final List<String> remoteOnly)
    {
        final CommandLine.ParseResult parsed = commandLine.getParseResult();
        final List<String> refused = new ArrayList<>(remote() ? localOnly : REMOTE_ONLY);
        if (!remote())
        {
            refused.addAll(remoteOnly);
        }
        for (final String option : refused)
        {
            if (parsed.hasMatchedOption(option))
            {
                throw new ParameterException(commandLine, remote() ?
                    option + " is for the run in this process: leave it out with --server" :
                    option + " is for a run against a server: give --server HOST:PORT with it");
            }
        }
    }

    /**
     * @param maxRecords the cap on records; 0 for none.
     * @throws ParameterException naming what cannot run.
     */
    RemoteLoad load(final CommandLine commandLine, final int partitions, final int payloadBytes,
        final int batchBytes, final long maxRecords)
    {
        final ClientConfig client = server.clientConfig(commandLine, "spool-bench");
        try
        {
            return new RemoteLoad(client, "server " + client.host() + ":" + client.port(), partitions, durability,
                payloadBytes, batchBytes, rate, durationMillis * 1_000_000L, maxRecords, progressMillis * 1_000_000L);
        }
        catch (final IllegalArgumentException ex)
        {
            throw new ParameterException(commandLine, ex.getMessage(), ex);
        }
    }
}
