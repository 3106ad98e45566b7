package io.spool.perf.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.spool.perf.cli.CommandRunner.Result;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.spool.perf.cli.CommandRunner.assertOneLineFailure;
import static io.spool.perf.cli.CommandRunner.run;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code spool topics alter} changes a topic's retention on a server and on a data directory. */
@SlowTest
class TopicsAlterCommandTest
{
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dataDirectory;

    @RegisterExtension
    final CommandRunner commands = new CommandRunner();

    @Test
    void alterChangesRetentionOnAServer() throws Exception
    {
        alterChangesRetention(commands.startServer(dataDirectory));
    }

    @Test
    void alterChangesRetentionOnADataDirectory() throws Exception
    {
        alterChangesRetention(List.of("--data-dir", dataDirectory.toString()));
    }

    private static void alterChangesRetention(final List<String> where) throws Exception
    {
        assertThat(run(where, "topics", "create", "orders", "--segment-bytes", "2MiB", "--retention", "7d")
            .exitCode()).isZero();

        final Result altered = run(where, "topics", "alter", "orders", "--retention", "1d");
        assertThat(altered.exitCode()).as(altered.err()).isZero();
        assertThat(altered.out()).startsWith("altered topic orders on ")
            .contains(": segment-bytes=2MiB ").contains(" retention=1d retention-bytes=none ");

        final JsonNode bySize = JSON.readTree(run(where, "topics", "alter", "orders", "--retention-bytes", "1GiB",
            "--json").out());
        assertThat(bySize.get("settings").get("retentionMillis").asLong()).as("kept").isEqualTo(86_400_000L);
        assertThat(bySize.get("settings").get("retentionBytes").asLong()).isEqualTo(1L << 30);
        assertThat(run(where, "topics", "describe", "orders").out()).contains(" retention=1d retention-bytes=1GiB ");

        assertThat(run(where, "topics", "alter", "orders", "--retention", "3600000ms", "--retention-bytes", "none")
            .exitCode()).isZero();
        final JsonNode described = JSON.readTree(run(where, "topics", "describe", "orders", "--json").out());
        assertThat(described.get("settings").get("retentionMillis").asLong()).isEqualTo(3_600_000L);
        assertThat(described.get("settings").get("retentionBytes").isNull()).as("no limit").isTrue();
        assertThat(described.get("settings").get("segmentBytes").asLong()).isEqualTo(2L << 20);

        assertOneLineFailure(run(where, "topics", "alter", "orders"), 2,
            "spool topics alter: give --retention, --retention-bytes or both; see spool topics alter --help");
        assertOneLineFailure(run(where, "topics", "alter", "orders", "--retention", "0s"), 2,
            "spool topics alter: retentionMillis must be positive or -1 (forever), got 0; see spool topics alter " +
                "--help");
        final Result missing = run(where, "topics", "alter", "missing", "--retention", "1d");
        assertThat(missing.exitCode()).isEqualTo(1);
        assertThat(missing.err()).contains("topic \"missing\" does not exist");
    }
}
