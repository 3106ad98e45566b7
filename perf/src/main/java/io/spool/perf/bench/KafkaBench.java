package io.spool.perf.bench;

import io.spool.api.queue.StartPosition;
import io.spool.api.stream.TopicConfig;
import io.spool.perf.report.BenchRun;
import io.spool.wire.kafka.BatchStorageComparison;
import io.spool.wire.server.ServerConfig;
import io.spool.wire.server.SpoolServer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code spool bench kafka}: Kafka's own perf tools (ProducerPerformance with acks=1 and acks=all,
 * ConsumerPerformance, ShareConsumerPerformance; default client settings) against the Kafka listener of a server in
 * this process, each tool in a JVM of its own as Kafka runs them, then Spool's native protocol ({@link WireBench})
 * in the same run. The tools print their own figures, passed through as they are; the same tools against a real
 * Kafka broker ({@code peer kafka bench}) give the ratios. With {@code batchStorage}, it also measures the two ways
 * of storing Kafka batches ({@link BatchStorageComparison}). Stateless: one run at a time.
 */
public final class KafkaBench
{
    public static final String NAME = "kafka";
    private static final String SHARE_GROUP = "perf-sg";
    private static final long TOOL_TIMEOUT_MINUTES = 30;

    private KafkaBench()
    {
    }

    /**
     * @param partitions     partitions of each benchmark topic
     * @param nativeProtocol also run {@code spool bench wire}'s native-protocol rounds with the same records
     */
    public record Settings(Path dataDirectory, long records, int recordBytes, int partitions, boolean nativeProtocol,
        boolean batchStorage)
    {
        public Settings
        {
            if (records < 1 || recordBytes < 1 || partitions < 1)
            {
                throw new IllegalArgumentException("records, record size and partitions must be at least 1, were " +
                    records + ", " + recordBytes + " and " + partitions);
            }
        }
    }

    /** Runs the tools, printing their output to {@code out}; returns the native-protocol runs, if asked for. */
    public static List<BenchRun> run(final Settings settings, final PrintWriter out, final PrintWriter progress)
        throws IOException, InterruptedException
    {
        try (ScratchDirectory directory = ScratchDirectory.create(settings.dataDirectory(), "bench-kafka");
            SpoolServer server = SpoolServer.open(directory.path().resolve("data"),
                ServerConfig.builder().port(0).kafka(null, 0).build()))
        {
            final String bootstrap = server.kafkaListener().bootstrapServers();
            server.engine().createTopic("bench-a1", TopicConfig.of(settings.partitions()));
            server.engine().createTopic("bench-aall", TopicConfig.of(settings.partitions()));
            final String records = Long.toString(settings.records());
            out.printf(Locale.ROOT, "# spool bench kafka: %s records of %d bytes, %d partition(s), listener %s%n",
                records, settings.recordBytes(), settings.partitions(), bootstrap);
            section(out, "ProducerPerformance acks=1");
            tool(out, "org.apache.kafka.tools.ProducerPerformance", "--bootstrap-server", bootstrap, "--topic",
                "bench-a1", "--num-records", records, "--record-size", Integer.toString(settings.recordBytes()),
                "--throughput", "-1", "--command-property", "acks=1");
            section(out, "ProducerPerformance acks=all");
            tool(out, "org.apache.kafka.tools.ProducerPerformance", "--bootstrap-server", bootstrap, "--topic",
                "bench-aall", "--num-records", records, "--record-size", Integer.toString(settings.recordBytes()),
                "--throughput", "-1", "--command-property", "acks=all");
            section(out, "ConsumerPerformance (bench-a1, from earliest)");
            tool(out, "org.apache.kafka.tools.ConsumerPerformance", "--bootstrap-server", bootstrap, "--topic",
                "bench-a1", "--num-records", records, "--group", "perf-cg", "--timeout", "60000");
            section(out, "ShareConsumerPerformance (bench-a1, share group " + SHARE_GROUP + ")");
            tool(out, "org.apache.kafka.tools.ConfigCommand", "--bootstrap-server", bootstrap, "--alter",
                "--entity-type", "groups", "--entity-name", SHARE_GROUP, "--add-config",
                "share.auto.offset.reset=earliest");
            tool(out, "org.apache.kafka.tools.ShareConsumerPerformance", "--bootstrap-server", bootstrap, "--topic",
                "bench-a1", "--num-records", records, "--group", SHARE_GROUP, "--timeout", "60000");
            if (!server.engine().subscription(SHARE_GROUP).settings().startPosition().equals(StartPosition.earliest()))
            {
                out.println("(the share group did not start from the earliest record; its figure is not comparable)");
            }
            if (settings.batchStorage())
            {
                section(out, "Kafka batches stored converted (the listener) or as they arrive, ns per record");
                final BatchStorageComparison.Result result = BatchStorageComparison.measure(server.engine().streams(),
                    (int)Math.min(Integer.MAX_VALUE, settings.records()), settings.recordBytes(), 3);
                out.printf(Locale.ROOT, "produce: converted %.1f, as they arrive %.1f%n",
                    result.convertProduceNanos(), result.keepProduceNanos());
                out.printf(Locale.ROOT, "fetch:   converted %.1f, as they arrive %.1f%n",
                    result.convertFetchNanos(), result.keepFetchNanos());
            }
            out.flush();
        }
        if (!settings.nativeProtocol())
        {
            return List.of();
        }
        section(out, "Spool's native protocol (spool bench wire), same records");
        out.flush();
        return WireBench.run(new WireBench.Settings(settings.dataDirectory(), settings.records(),
            settings.recordBytes(), 262_144, 1, 1), progress);
    }

    private static void section(final PrintWriter out, final String title)
    {
        out.println();
        out.println("## " + title);
        out.flush();
    }

    /** Runs one of Kafka's tools in a JVM of its own on this JVM's class path, printing what it prints. */
    private static void tool(final PrintWriter out, final String mainClass, final String... arguments)
        throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xms512m", "-Xmx512m",
            "-cp", System.getProperty("java.class.path"), mainClass));
        command.addAll(List.of(arguments));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(),
            StandardCharsets.UTF_8)))
        {
            String line;
            while ((line = lines.readLine()) != null)
            {
                if (!line.startsWith("SLF4J") && !line.contains("Log4jController"))
                {
                    out.println(line);
                    out.flush();
                }
            }
        }
        if (!process.waitFor(TOOL_TIMEOUT_MINUTES, TimeUnit.MINUTES))
        {
            process.destroyForcibly();
            throw new IllegalStateException(mainClass + " did not finish in " + TOOL_TIMEOUT_MINUTES + " minutes");
        }
        if (process.exitValue() != 0)
        {
            throw new IllegalStateException(mainClass + " failed with exit code " + process.exitValue());
        }
    }
}
