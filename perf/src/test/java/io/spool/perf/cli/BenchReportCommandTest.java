package io.spool.perf.cli;

import io.spool.testing.SlowTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code --report FILE.html}: the page a run writes carries the same figures the run prints. */
@SlowTest
class BenchReportCommandTest
{
    private static final Pattern RATIO = Pattern.compile("\"ratio\":([0-9.E-]+)");

    @TempDir
    Path directory;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void ingestWritesAPageWithItsRatioAndCharts() throws IOException
    {
        final Path report = directory.resolve("reports/ingest.html");

        assertThat(execute("bench", "ingest", "--records", "3000", "--baseline-records", "3000",
            "--payload-bytes", "16", "--batch", "64", "--data-dir", directory.resolve("data").toString(), "--json",
            "--report", report.toString())).isEqualTo(0);

        final String html = Files.readString(report, StandardCharsets.UTF_8);
        assertThat(err.toString()).contains("report written to " + report);
        assertThat(html).contains("<h1>Spool benchmark report</h1>", "spool bench ingest --records 3000",
            "<h3>Throughput over the run</h3>", "<h3>Latency: publish to confirm, per batch of 64</h3>",
            "spool ingest pipeline", "raw mapped append, before and after",
            "<div class=\"figure\">" + ratioOf(out.toString()) + "</div>");
        assertThat(Pattern.compile("<svg ").matcher(html).results().count()).isEqualTo(3);
        assertThat(html).containsPattern("<polyline class=\"series\"[^>]*points=\"[0-9., ]+\"");
    }

    @Test
    void queueWritesOneSectionPerConfigurationAfterASummary() throws IOException
    {
        final Path report = directory.resolve("queue.html");

        assertThat(execute("bench", "queue", "--records", "300", "--consumers", "1,2", "--prefetch", "10",
            "--data-dir", directory.toString(), "--report", report.toString())).isEqualTo(0);

        final String html = Files.readString(report, StandardCharsets.UTF_8);
        assertThat(html).contains("<h2>All configurations</h2>",
            "<h2>spool bench queue (1 consumer(s), prefetch 10)</h2>",
            "<h2>spool bench queue (2 consumer(s), prefetch 10)</h2>",
            "receive + ack of the published records", "receive + ack while publishing (live phase)",
            "<h3>Latency: publish to ack</h3>");
        assertThat(Pattern.compile("<svg ").matcher(html).results().count()).isEqualTo(1 + 2 * 3);
    }

    @Test
    void e2ePrintsOneJsonObjectPerPartitionCountAndWritesItsReport() throws IOException
    {
        final Path report = directory.resolve("e2e.html");

        assertThat(execute("bench", "e2e", "--records", "1000", "--baseline-records", "1000", "--partitions", "1,2",
            "--data-dir", directory.toString(), "--json", "--report", report.toString())).isEqualTo(0);

        assertThat(out.toString().lines()).hasSize(2).allSatisfy(json -> assertThat(json)
            .contains("\"records\":1000", "\"latency\":\"publish to poll, per record\"",
                "\"latencySamples\":1000", "\"baseline\":\"raw mapped append, before and after\"")
            .containsPattern("\"ratio\":[0-9]"));
        assertThat(Files.readString(report, StandardCharsets.UTF_8))
            .contains("<h2>spool bench e2e (1 partition(s))</h2>", "<h2>spool bench e2e (2 partition(s))</h2>");
    }

    @Test
    void e2eRefusesAPayloadWithoutRoomForThePublishTime()
    {
        assertThat(execute("bench", "e2e", "--payload-bytes", "4", "--data-dir", directory.toString()))
            .isEqualTo(2);
        assertThat(err.toString()).contains("payload bytes from 8");
    }

    @Test
    void wirePrintsOneJsonObjectForPublishAndOneForConsume()
    {
        assertThat(execute("bench", "wire", "--records", "1000", "--rounds", "1", "--warmup-rounds", "0",
            "--data-dir", directory.toString(), "--json")).isEqualTo(0);

        final List<String> lines = out.toString().lines().toList();
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).contains("\"benchmark\":\"wire publish (1 connection, batches of 256 KiB)\"",
            "\"records\":1000", "\"baseline\":\"embedded producer, same rounds\"").containsPattern("\"ratio\":[0-9]");
        assertThat(lines.get(1)).contains("\"benchmark\":\"wire consume (1 connection)\"", "\"records\":1000",
            "\"baseline\":\"embedded stream poll, same rounds\"");
        assertThat(err.toString()).contains("bench wire: round 1 of 1: publish with confirms embedded");
    }

    /** The ratio of a JSON result as the report writes it: three significant digits. */
    private static String ratioOf(final String json)
    {
        final Matcher ratio = RATIO.matcher(json);
        assertThat(ratio.find()).as(json).isTrue();
        return String.format(Locale.ROOT, "%.3g", Double.parseDouble(ratio.group(1)));
    }

    private int execute(final String... args)
    {
        return SpoolCommand.newCommandLine()
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true))
            .execute(args);
    }
}
