package io.spool.perf.cli;

import io.spool.api.MetricSample;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.cluster.ClusterClient;
import io.spool.cluster.ClusterMembers;
import io.spool.cluster.LoopbackPorts;
import io.spool.testing.SlowTest;
import io.spool.wire.client.ClientConfig;
import io.spool.wire.client.SpoolClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code spool server}'s operations side: the Prometheus endpoint (scraped and parsed), {@code /health},
 * {@code spool ping}, {@code --token-file}, defaults from the environment and a configuration file, and each kind of
 * bad input answered by one line naming it, a non-zero exit and an untouched data directory.
 */
@SlowTest
class ServerOperationsTest
{
    private static final Duration BOUND = Duration.ofSeconds(60);
    private static final Pattern LISTENING = Pattern.compile("listening on 127\\.0\\.0\\.1:(\\d+)");
    private static final Pattern METRICS = Pattern.compile("metrics on http://127\\.0\\.0\\.1:(\\d+)/metrics");
    private static final Pattern CLIENTS_ON = Pattern.compile("clients on 127\\.0\\.0\\.1:(\\d+)");
    private static final int CLUSTER_RECORDS = 5;
    /** A sample line of the Prometheus text format: name, optional labels, value. */
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(\\{[^}]*})? (\\S+)$");

    @TempDir
    Path dir;
    private final List<Thread> background = new ArrayList<>();

    @AfterEach
    void stop() throws InterruptedException
    {
        for (final Thread thread : background)
        {
            thread.interrupt();
            thread.join(BOUND.toMillis());
            assertThat(thread.isAlive()).as("the server still runs").isFalse();
        }
    }

    @Test
    void metricsEndpointServesTheServersFiguresInPrometheusTextAndHealthSaysReady() throws Exception
    {
        final Path data = dir.resolve("data");
        final AwaitableWriter out = startServer(Map.of(), "server", "--data-dir", data.toString(), "--port", "0",
            "--metrics-port", "0");
        final String started = out.awaitContaining("listening on", BOUND);
        final int port = group(LISTENING, started);
        final int metricsPort = group(METRICS, started);

        try (SpoolClient client = SpoolClient.connect(ClientConfig.builder().port(port).build()))
        {
            client.admin().createTopic("orders", TopicConfig.of(2));
            final StringWriter produced = new StringWriter();
            assertThat(SpoolCommand.execute(new String[]{"produce", "orders", "--server", "127.0.0.1:" + port,
                "--key", "customer-7", "one", "two", "three"}, Map.of(), new PrintWriter(produced),
                new PrintWriter(new StringWriter()))).isZero();
            final int partition = Integer.parseInt(produced.toString().lines().findFirst().orElseThrow()
                .replaceAll(".*partition=(\\d+).*", "$1"));

            final HttpClient http = HttpClient.newHttpClient();
            final HttpResponse<String> health = get(http, metricsPort, "/health");
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).isEqualTo("ready\n");

            final HttpResponse<String> scrape = get(http, metricsPort, "/metrics");
            assertThat(scrape.statusCode()).isEqualTo(200);
            final Map<String, Double> samples = parse(scrape.body());
            final String labels = "{partition=\"" + partition + "\",topic=\"orders\"}";
            assertThat(samples).containsEntry("spool_partition_end_offset_total" + labels, 3.0)
                .containsEntry("spool_partition_records" + labels, 3.0)
                .containsEntry("spool_records_confirmed_total", 3.0)
                .containsKeys("spool_fsyncs_total", "spool_server_connections", "jvm_threads_current");
            assertThat(samples.get("spool_server_requests_total{operation=\"PUBLISH\"}")).isGreaterThanOrEqualTo(1);
            assertThat(scrape.body()).contains("# TYPE spool_partition_end_offset_total counter",
                "# TYPE spool_partition_size_bytes gauge");

            // the same figures over the wire
            final List<MetricSample> overTheWire = client.admin().metrics();
            assertThat(MetricSample.valueOf(overTheWire, "spool_partition_end_offset_total",
                Map.of("topic", "orders", "partition", Integer.toString(partition)))).isEqualTo(3.0);
            assertThat(MetricSample.valueOf(overTheWire, "spool_server_requests_total",
                Map.of("operation", "METRICS"))).isGreaterThanOrEqualTo(1);
        }

        final StringWriter ping = new StringWriter();
        assertThat(SpoolCommand.execute(new String[]{"ping", "127.0.0.1:" + port, "--count", "2"}, Map.of(),
            new PrintWriter(ping), new PrintWriter(new StringWriter()))).isZero();
        assertThat(ping.toString().lines().filter(line -> line.contains("answered in"))).hasSize(2);
    }

    /**
     * A cluster node serves its engine's and server's figures beside its Raft groups'; its health says what it
     * waits for while it is alone, and ready once a majority is up; {@code spool ping} reaches its native port;
     * interrupted, it closes.
     */
    @Test
    void aClusterNodeServesItsGroupsFiguresAndIsHealthyOnceAMajorityIsUp() throws Exception
    {
        final ClusterMembers members = LoopbackPorts.members(3);
        final AwaitableWriter first = startServer(Map.of(), clusterNode(members, 1, "--metrics-port", "0"));
        final String started = first.awaitContaining("clients on", BOUND);
        final int metricsPort = group(METRICS, started);
        final int port = group(CLIENTS_ON, started);
        final HttpClient http = HttpClient.newHttpClient();
        final HttpResponse<String> alone = awaitResponse(http, metricsPort, "/health",
            response -> response.body().contains("no metadata leader known yet"));
        assertThat(alone.statusCode()).isEqualTo(503);
        assertThat(alone.body()).startsWith("not ready: no metadata leader known yet: is a majority of the cluster")
            .endsWith("?\n").doesNotContain("\n\n");

        startServer(Map.of(), clusterNode(members, 2));
        startServer(Map.of(), clusterNode(members, 3));
        final HttpResponse<String> health = awaitResponse(http, metricsPort, "/health",
            response -> response.statusCode() == 200);
        assertThat(health.body()).startsWith("ready: serving ").contains("the metadata leader is node");

        try (ClusterClient cluster = ClusterClient.connect(members))
        {
            cluster.createTopic("orders", 3, TopicConfig.of(1));
            for (int record = 0; record < CLUSTER_RECORDS; record++)
            {
                cluster.newProducer().send("orders", 0, List.of(ProducerRecord.toPartition("orders", 0, null,
                    ("order " + record).getBytes(StandardCharsets.UTF_8)))).get();
            }
        }
        final String partition = "{partition=\"0\",topic=\"orders\"}";
        final HttpResponse<String> scrape = awaitResponse(http, metricsPort, "/metrics", response ->
            parse(response.body()).getOrDefault("spool_partition_end_offset_total" + partition, 0.0) ==
                CLUSTER_RECORDS);
        final Map<String, Double> samples = parse(scrape.body());
        assertThat(samples.get("spool_cluster_partition_leader" + partition)).isIn(0.0, 1.0);
        assertThat(samples.get("spool_cluster_partition_commit_index" + partition))
            .isGreaterThanOrEqualTo(CLUSTER_RECORDS);
        assertThat(samples.get("spool_cluster_partition_applied_index" + partition))
            .isGreaterThanOrEqualTo(CLUSTER_RECORDS);
        assertThat(samples).containsKeys("spool_cluster_partition_term" + partition,
            "spool_cluster_partition_snapshot_index" + partition, "spool_cluster_metadata_leader",
            "spool_cluster_metadata_commit_index", "spool_server_connections", "jvm_threads_current")
            .containsEntry("spool_cluster_groups", 2.0)
            .containsEntry("spool_cluster_leaderless_groups", 0.0)
            .containsEntry("spool_cluster_groups_left_total", 0.0);
        assertThat(scrape.body()).contains("# TYPE spool_cluster_partition_commit_index gauge",
            "# TYPE spool_cluster_groups_left_total counter");

        final StringWriter ping = new StringWriter();
        assertThat(SpoolCommand.execute(new String[]{"ping", "127.0.0.1:" + port}, Map.of(), new PrintWriter(ping),
            new PrintWriter(new StringWriter()))).isZero();
        assertThat(ping.toString()).contains("answered in", "(1 topic(s))");

        background.get(0).interrupt();
        first.awaitContaining("spool server: closed", BOUND);
    }

    /**
     * A cluster node that stops itself, as when its disk refuses the files of a topic the metadata group created,
     * ends {@code spool server} with exit 3 and its stop line on stderr, for a supervisor to see; one interrupted
     * ends it with 0.
     */
    @Test
    void aClusterNodeThatStopsItselfExitsWithThreeAndOneInterruptedWithZero() throws Exception
    {
        final ClusterMembers members = LoopbackPorts.members(3);
        final Served stopping = serve(Map.of(), clusterNode(members, 1));
        final Served interrupted = serve(Map.of(), clusterNode(members, 2));
        serve(Map.of(), clusterNode(members, 3));
        stopping.out.awaitContaining("clients on", BOUND);
        interrupted.out.awaitContaining("clients on", BOUND);
        // a file where node 1 makes the topic's directory: its engine cannot create the topic's files
        final Path topicDirectory = dir.resolve("node-1").resolve("log").resolve("topics").resolve("orders");
        Files.createDirectories(topicDirectory.getParent());
        Files.writeString(topicDirectory, "in the way");

        try (ClusterClient cluster = ClusterClient.connect(members))
        {
            cluster.createTopic("orders", 3, TopicConfig.of(1));
        }

        assertThat(stopping.awaitExit()).isEqualTo(ClusterServing.EXIT_NODE_STOPPED).isEqualTo(3);
        assertThat(stopping.err.toString().strip()).startsWith("spool server: node 1 stopped: it cannot write " +
            "the files of topic orders to ").contains("restart the node").doesNotContain("\n");
        assertThat(stopping.out.toString()).doesNotContain("spool server: closed");

        interrupted.thread.interrupt();
        assertThat(interrupted.awaitExit()).isZero();
        assertThat(interrupted.out.toString()).contains("spool server: closed");
        assertThat(interrupted.err.toString()).isEmpty();
    }

    private String[] clusterNode(final ClusterMembers members, final int nodeId, final String... more)
    {
        final List<String> args = new ArrayList<>(List.of("server", "--node-id", Integer.toString(nodeId),
            "--cluster", members.toString(), "--data-dir", dir.resolve("node-" + nodeId).toString(), "--port", "0"));
        args.addAll(List.of(more));
        return args.toArray(String[]::new);
    }

    @Test
    void pingOfAServerThatIsNotThereFailsWithOneLine() throws Exception
    {
        final int port = freePort();
        final Run run = run(Map.of(), "ping", "127.0.0.1:" + port);
        assertThat(run.exit).isEqualTo(1);
        assertThat(run.err.strip()).startsWith("spool ping: ").doesNotContain("\n");
    }

    @Test
    void environmentAndConfigurationFileSupplyOptionsAndTheTokenComesFromItsFile() throws Exception
    {
        final Path data = dir.resolve("data");
        final Path config = dir.resolve("spool.conf");
        Files.writeString(config, "data-dir=" + data.toString().replace("\\", "\\\\") + "\nport=0\n");
        final Path token = dir.resolve("token");
        Files.writeString(token, "s3cret\n");
        final AwaitableWriter out = startServer(Map.of("SPOOL_TOKEN_FILE", token.toString()), "server",
            "--config", config.toString());
        final String started = out.awaitContaining("listening on", BOUND);
        assertThat(started).contains("data directory " + data, "token required");
        final int port = group(LISTENING, started);

        assertThat(run(Map.of("SPOOL_SERVER", "127.0.0.1:" + port, "SPOOL_TOKEN", "s3cret"), "topics", "list")
            .exit).isZero();
        final Run wrongToken = run(Map.of("SPOOL_SERVER", "127.0.0.1:" + port, "SPOOL_TOKEN", "guess"),
            "topics", "list");
        assertThat(wrongToken.exit).isEqualTo(1);
    }

    @Test
    void eachBadInputGetsOneLineANonZeroExitAndLeavesTheDataDirectoryUntouched() throws Exception
    {
        final Path data = dir.resolve("untouched");
        final Path badEscape = dir.resolve("bad-escape.conf");
        Files.writeString(badEscape, "port=\\u12G4\n");
        final Path unknownKey = dir.resolve("unknown.conf");
        Files.writeString(unknownKey, "prot=7420\n");
        final Path badValue = dir.resolve("bad-value.conf");
        Files.writeString(badValue, "port=seventy\n");
        final Path emptyToken = dir.resolve("empty-token");
        Files.writeString(emptyToken, "\n");
        final String dataDir = data.toString();

        try (ServerSocket taken = new ServerSocket(0))
        {
            final Map<String, Run> runs = new HashMap<>();
            runs.put("malformed config file", run(Map.of(), "server", "--config", badEscape.toString(),
                "--data-dir", dataDir));
            runs.put("missing config file", run(Map.of(), "server", "--config", dir.resolve("none.conf").toString(),
                "--data-dir", dataDir));
            runs.put("unknown key in the config file", run(Map.of(), "server", "--config", unknownKey.toString(),
                "--data-dir", dataDir));
            runs.put("bad value in the config file", run(Map.of(), "server", "--config", badValue.toString(),
                "--data-dir", dataDir));
            runs.put("unknown option", run(Map.of(), "server", "--prot", "7420", "--data-dir", dataDir));
            runs.put("bad environment variable", run(Map.of("SPOOL_PORT", "abc"), "server", "--data-dir", dataDir));
            runs.put("bad log level", run(Map.of("SPOOL_LOG_LEVEL", "loud"), "server", "--data-dir", dataDir));
            runs.put("port in use", run(Map.of(), "server", "--port", Integer.toString(taken.getLocalPort()),
                "--data-dir", dataDir));
            runs.put("metrics port in use", run(Map.of(), "server", "--port", "0", "--metrics-port",
                Integer.toString(taken.getLocalPort()), "--data-dir", dataDir));
            runs.put("unreadable token file", run(Map.of(), "server", "--token-file",
                dir.resolve("no-token").toString(), "--data-dir", dataDir));
            runs.put("empty token file", run(Map.of(), "server", "--token-file", emptyToken.toString(),
                "--data-dir", dataDir));

            assertThat(runs.get("malformed config file").err).contains("bad-escape.conf", "not a properties file");
            assertThat(runs.get("missing config file").err).contains("none.conf", "cannot read");
            assertThat(runs.get("unknown key in the config file").err).contains("unknown setting 'prot'", "port");
            assertThat(runs.get("bad value in the config file").err).contains("port=seventy", "--port");
            assertThat(runs.get("unknown option").err).contains("--prot");
            assertThat(runs.get("bad environment variable").err).contains("environment variable SPOOL_PORT=abc");
            assertThat(runs.get("bad log level").err).contains("'loud' is not a log level");
            assertThat(runs.get("port in use").err).contains("--port " + taken.getLocalPort(), "cannot listen");
            assertThat(runs.get("metrics port in use").err).contains("--metrics-port " + taken.getLocalPort());
            assertThat(runs.get("unreadable token file").err).contains("--token-file", "no-token", "cannot read");
            assertThat(runs.get("empty token file").err).contains("--token-file", "empty");
            for (final Map.Entry<String, Run> run : runs.entrySet())
            {
                assertThat(run.getValue().exit).as(run.getKey()).isNotZero();
                assertThat(run.getValue().err.strip()).as(run.getKey()).startsWith("spool").doesNotContain("\n");
                assertThat(run.getValue().out).as(run.getKey()).isEmpty();
            }
        }
        assertThat(data).as("the data directory is never created").doesNotExist();
    }

    private AwaitableWriter startServer(final Map<String, String> environment, final String... args)
    {
        return serve(environment, args).out;
    }

    /** Runs {@code spool server} on a thread of its own until the test ends, its output and exit status kept. */
    private Served serve(final Map<String, String> environment, final String... args)
    {
        final AwaitableWriter out = new AwaitableWriter();
        final AwaitableWriter err = new AwaitableWriter();
        final AtomicInteger exit = new AtomicInteger(-1);
        final Thread thread = new Thread(() -> exit.set(SpoolCommand.execute(args, environment,
            new PrintWriter(out, true), new PrintWriter(err, true))), "spool server");
        background.add(thread);
        thread.start();
        return new Served(out, err, exit, thread);
    }

    private static Run run(final Map<String, String> environment, final String... args)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final int exit = SpoolCommand.execute(args, environment, new PrintWriter(out, true),
            new PrintWriter(err, true));
        return new Run(exit, out.toString(), err.toString());
    }

    private static int group(final Pattern pattern, final String text)
    {
        final Matcher matcher = pattern.matcher(text);
        assertThat(matcher.find()).as(text).isTrue();
        return Integer.parseInt(matcher.group(1));
    }

    private static HttpResponse<String> get(final HttpClient http, final int port, final String path)
        throws Exception
    {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).timeout(BOUND)
            .build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /** Asks until the answer is what {@code wanted} looks for, or the bound passes. */
    private static HttpResponse<String> awaitResponse(final HttpClient http, final int port, final String path,
        final Predicate<HttpResponse<String>> wanted) throws Exception
    {
        final long deadline = System.nanoTime() + BOUND.toNanos();
        HttpResponse<String> response = get(http, port, path);
        while (!wanted.test(response))
        {
            assertThat(System.nanoTime()).as("%s answers what the test waits for; last: %s %s", path,
                response.statusCode(), response.body()).isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
            response = get(http, port, path);
        }
        return response;
    }

    /** The samples of a Prometheus text exposition by name and labels as written; comments and blanks skipped. */
    private static Map<String, Double> parse(final String exposition)
    {
        final Map<String, Double> samples = new HashMap<>();
        for (final String line : exposition.split("\n"))
        {
            if (line.isBlank() || line.startsWith("#"))
            {
                continue;
            }
            final Matcher sample = SAMPLE.matcher(line);
            assertThat(sample.matches()).as("a sample line: %s", line).isTrue();
            samples.put(sample.group(1) + (sample.group(2) == null ? "" : sample.group(2)),
                Double.parseDouble(sample.group(3)));
        }
        return samples;
    }

    private static int freePort() throws Exception
    {
        try (ServerSocket socket = new ServerSocket(0))
        {
            return socket.getLocalPort();
        }
    }

    private record Run(int exit, String out, String err)
    {
    }

    /** A {@code spool server} running in the background: its exit status is -1 until it ends. */
    private record Served(AwaitableWriter out, AwaitableWriter err, AtomicInteger exit, Thread thread)
    {
        int awaitExit() throws InterruptedException
        {
            thread.join(BOUND.toMillis());
            assertThat(thread.isAlive()).as("the server still runs").isFalse();
            return exit.get();
        }
    }
}
