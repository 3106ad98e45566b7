package io.spool.perf.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spool.perf.cli.CommandRunner.Result;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.spool.perf.cli.CommandRunner.run;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code spool bench wire --server} and {@code spool bench queue --server} against a server started by
 * {@code spool server}, in tiny runs that end on a record count: each prints its results as text and JSON (with the
 * environment), writes the report, cleans up what it created on the server, and refuses bad input in one line.
 * These runs check that the tools work; they measure nothing.
 */
@SlowTest
class RemoteBenchCommandsTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dataDirectory;

    @RegisterExtension
    final CommandRunner commands = new CommandRunner();

    @Test
    void wireBenchPublishesAndConsumesTheRecordsAndPrintsJsonWithTheEnvironment() throws Exception
    {
        final List<String> server = commands.startServer(dataDirectory);

        final Result bench = run(server, "bench", "wire", "--records", "3000", "--duration", "10m",
            "--payload-bytes", "16", "--partitions", "2", "--json");

        assertThat(bench.exitCode()).as(bench.err()).isZero();
        final List<JsonNode> results = jsonLines(bench.out());
        assertThat(results).hasSize(2);
        final JsonNode publish = results.get(0);
        final JsonNode consume = results.get(1);
        assertThat(publish.get("benchmark").asText()).isEqualTo("wire publish (1 connection, " +
            server.get(1).replace("127.", "server 127.") + ")");
        assertThat(publish.get("records").asLong()).isEqualTo(3000);
        assertThat(publish.get("partitions").asInt()).isEqualTo(2);
        assertThat(publish.get("baseline").asText()).isEqualTo("offered: handed to the producer");
        assertThat(publish.get("latencySamples").asLong()).isEqualTo(3000 / 64 + 1);
        assertThat(consume.get("benchmark").asText()).startsWith("wire consumed (1 connection, server 127.0.0.1:");
        assertThat(consume.get("records").asLong()).isEqualTo(3000);
        assertThat(consume.get("latencySamples").asLong()).isEqualTo(3000);
        final JsonNode environment = publish.get("environment");
        assertThat(environment.get("cpus").asInt()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(environment.get("java").asText()).isEqualTo(Runtime.version().toString());
        assertThat(environment.get("os").asText()).startsWith(System.getProperty("os.name"));
        assertThat(environment.has("spoolVersion")).isTrue();
        assertThat(environment.has("spoolCommit")).isTrue();
        assertThat(run(server, "topics", "list").out()).as("the run's topic is deleted").isEmpty();
    }

    @Test
    void aPacedWireBenchComparesWithItsTargetRateAndWritesTheReport(@TempDir final Path reports) throws Exception
    {
        final List<String> server = commands.startServer(dataDirectory);
        final Path report = reports.resolve("wire.html");

        final Result bench = run(server, "bench", "wire", "--rate", "20000", "--records", "400", "--duration",
            "10m", "--report", report.toString());

        assertThat(bench.exitCode()).as(bench.err()).isZero();
        assertThat(bench.out()).contains("spool bench wire publish (1 connection, server 127.0.0.1:")
            .containsPattern("baseline +20,000 records/s .*\\(target rate, 400 records, same run\\)")
            .contains("spool bench wire consumed (1 connection, server 127.0.0.1:");
        assertThat(bench.err()).contains("report written to " + report);
        assertThat(Files.readString(report)).contains("<html", "wire publish", "spool bench wire --rate 20000");
    }

    @Test
    void queueBenchRunsEveryConfigurationOfPushAndPullConsumersAckingEveryDelivery() throws Exception
    {
        final List<String> server = commands.startServer(dataDirectory);

        final Result push = run(server, "bench", "queue", "--records", "500", "--duration", "10m",
            "--consumers", "1,2", "--prefetch", "10", "--json");
        final Result pull = run(server, "bench", "queue", "--records", "300", "--duration", "10m",
            "--consumer-mode", "pull", "--consumers", "2", "--prefetch", "50", "--json");

        assertThat(push.exitCode()).as(push.err()).isZero();
        final List<JsonNode> pushed = jsonLines(push.out());
        assertThat(pushed).extracting(result -> result.get("benchmark").asText().replaceAll(", server .*", ""))
            .containsExactly("queue publish (push, prefetch 10, 1 consumer(s)",
                "queue acked (push, prefetch 10, 1 consumer(s)",
                "queue publish (push, prefetch 10, 2 consumer(s)",
                "queue acked (push, prefetch 10, 2 consumer(s)");
        assertThat(pushed).extracting(result -> result.get("records").asLong()).containsOnly(500L);
        assertThat(pull.exitCode()).as(pull.err()).isZero();
        final List<JsonNode> pulled = jsonLines(pull.out());
        assertThat(pulled.get(1).get("benchmark").asText()).startsWith("queue acked (pull, prefetch 50, 2 consumer(s)");
        assertThat(pulled.get(1).get("records").asLong()).isEqualTo(300);
        assertThat(pulled.get(1).get("latencySamples").asLong()).isEqualTo(300);
        assertThat(run(server, "subscriptions", "list").out()).as("the runs' subscriptions are deleted").isEmpty();
        assertThat(run(server, "topics", "list").out()).isEmpty();
    }

    @Test
    void optionsThatDoNotFitWhereTheBenchRunsAreRefusedInOneLine() throws Exception
    {
        assertOneLine(run(List.of(), "bench", "wire", "--rate", "100"), 2,
            "spool bench wire: --rate is for a run against a server: give --server HOST:PORT with it");
        assertOneLine(run(List.of(), "bench", "queue", "--consumer-mode", "pull"), 2,
            "spool bench queue: --consumer-mode is for a run against a server: give --server HOST:PORT with it");
        assertOneLine(run(List.of("--server", "127.0.0.1:1"), "bench", "wire", "--rounds", "3"), 2,
            "spool bench wire: --rounds is for the run in this process: leave it out with --server");
        assertOneLine(run(List.of("--server", "127.0.0.1:1"), "bench", "queue", "--no-fork"), 2,
            "spool bench queue: --fork is for the run in this process: leave it out with --server");
        assertOneLine(run(List.of("--server", "127.0.0.1:1"), "bench", "wire", "--rate", "-5"), 2,
            "spool bench wire: a run against a server needs ");
        assertOneLine(run(List.of("--server", "127.0.0.1:1"), "bench", "wire", "--duration", "soon"), 2,
            "spool bench wire: Invalid value for option '--duration': 'soon' is not a duration");
        assertOneLine(run(List.of("--server", "127.0.0.1:1"), "bench", "queue", "--consumer-mode", "sideways"), 2,
            "spool bench queue: --consumer-mode: 'sideways' is not one of push, pull");
        assertOneLine(run(List.of("--server", "127.0.0.1:1"), "bench", "wire", "--records", "1"), 1,
            "spool bench wire: cannot connect to 127.0.0.1:1: connection refused");

        final List<String> server = commands.startServer(dataDirectory);
        assertOneLine(run(server, "bench", "queue", "--consumer-mode", "pull", "--prefetch", "20000",
            "--records", "1"), 2, "spool bench queue: consumers must be at least 1 and prefetch from 1 to 10000");
    }

    private static void assertOneLine(final Result result, final int exitCode, final String start)
    {
        assertThat(result.exitCode()).as(result.err()).isEqualTo(exitCode);
        assertThat(result.err().lines()).as(result.err()).hasSize(1);
        assertThat(result.err()).startsWith(start);
    }

    private static List<JsonNode> jsonLines(final String out) throws Exception
    {
        final List<JsonNode> nodes = new ArrayList<>();
        for (final String line : out.lines().toList())
        {
            nodes.add(JSON.readTree(line));
        }
        return nodes;
    }
}
