package io.spool.perf.cli;

import io.spool.api.log.Durability;
import io.spool.perf.bench.BenchSettings;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

@SlowTest
class SpoolCommandTest
{
    private static final String[] REQUIRED_JSON_NUMBERS = {
        "records", "recordsPerSec", "mbPerSec", "baselineRecordsPerSec", "ratio", "p50Micros", "p99Micros",
        "p999Micros"};

    @TempDir
    Path dataDirectory;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void benchOptionsHaveDefaults()
    {
        final BenchSettings settings = parseIngest();

        assertThat(settings).isEqualTo(new BenchSettings(
            5_000_000, 5_000_000, 100, 1, 1, 1, Durability.NONE, 256, 8, Path.of("spool-data")));
    }

    @Test
    void benchOptionsAreParsed()
    {
        final BenchSettings settings = parseIngest("--records", "1000", "--baseline-records", "7000",
            "--payload-bytes", "512", "--partitions", "4",
            "--producers", "16", "--pipelines", "2", "--durability", "interval:5", "--batch", "1", "--in-flight", "1",
            "--data-dir", "elsewhere");

        assertThat(settings).isEqualTo(new BenchSettings(
            1_000, 7_000, 512, 4, 16, 2, Durability.interval(5), 1, 1, Path.of("elsewhere")));
    }

    @Test
    void aShortRunMeasuresItsBaselineOver256MiBOfFrames()
    {
        assertThat(parseIngest("--records", "3000").baselineRecords()).isEqualTo(1_864_136);
    }

    @Test
    void aPayloadTheLogWouldRefuseIsAUsageErrorBeforeAnythingRuns()
    {
        assertThat(execute("bench", "ingest", "--payload-bytes", "2000000", "--data-dir", dataDirectory.toString()))
            .isEqualTo(2);
        assertThat(err.toString()).contains("payload bytes must be at most 1048536");
    }

    @Test
    void durabilityEveryBatchIsAccepted()
    {
        assertThat(parseIngest("--durability", "every-batch").durability()).isEqualTo(Durability.EVERY_BATCH);
    }

    @Test
    void anUnknownDurabilityIsAUsageErrorThatListsTheChoices()
    {
        assertThat(execute("bench", "ingest", "--durability", "sometimes")).isEqualTo(2);
        assertThat(err.toString())
            .contains("unknown durability 'sometimes': expected none, every-batch or interval:MS");
    }

    @Test
    void aSettingThatCannotRunIsAUsageErrorNamingIt()
    {
        assertThat(execute("bench", "ingest", "--partitions", "0", "--data-dir", dataDirectory.toString()))
            .isEqualTo(2);
        assertThat(err.toString()).contains("partitions must be at least 1, was 0");
    }

    @Test
    void aClusterNodeRefusesTheSqsApiByName()
    {
        assertThat(execute("server", "--port", "0", "--node-id", "1", "--cluster",
            "1@127.0.0.1:1,2@127.0.0.1:2,3@127.0.0.1:3", "--kafka-port", "0", "--metrics-port", "0",
            "--sqs-port", "0", "--data-dir", dataDirectory.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("a cluster node serves no SQS API so far: drop --sqs-port, or " +
            "--node-id and --cluster");
        assertThat(dataDirectory.resolve("raft")).doesNotExist();
    }

    @Test
    void aSnapshotIntervalIsACheckedClusterSetting()
    {
        assertThat(execute("server", "--port", "0", "--snapshot-every", "100", "--data-dir",
            dataDirectory.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--snapshot-every is a cluster node's setting: add --node-id and " +
            "--cluster, or drop it");
        assertThat(execute("server", "--port", "0", "--node-id", "1", "--cluster",
            "1@127.0.0.1:1,2@127.0.0.1:2,3@127.0.0.1:3", "--snapshot-every", "0",
            "--data-dir", dataDirectory.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("--snapshot-every: a Raft group snapshots every 1 or more entries, " +
            "was 0; the default is 1024");
    }

    @Test
    void aCommandWithoutItsSubcommandIsAUsageError()
    {
        assertThat(execute()).isEqualTo(2);
        assertThat(err.toString()).contains("a subcommand is needed").contains("see spool --help");
        assertThat(execute("bench")).isEqualTo(2);
        assertThat(err.toString()).contains("a benchmark is needed: ingest, replay, queue, e2e, wire, kafka, sqs or cluster");
        assertThat(execute("topics")).isEqualTo(2);
        assertThat(err.toString()).contains("a subcommand is needed: list, create, describe, alter or delete");
    }

    @Test
    void ingestPrintsOneJsonObjectWithTheAgreedFieldsAndLeavesNoFilesBehind() throws IOException
    {
        assertThat(execute("bench", "ingest", "--records", "3000", "--baseline-records", "3000",
            "--payload-bytes", "16", "--partitions", "2", "--producers", "2", "--batch", "64",
            "--data-dir", dataDirectory.toString(), "--json")).isEqualTo(0);

        final String json = out.toString().strip();
        assertThat(json).startsWith("{").endsWith("}").doesNotContain("\n");
        assertThat(json).contains("\"benchmark\":\"ingest\"", "\"records\":3000", "\"payloadBytes\":16",
            "\"partitions\":2", "\"producers\":2", "\"durability\":\"none\"", "\"fsyncs\":0",
            "\"baseline\":\"raw mapped append, before and after\",\"baselineRecords\":6000");
        for (final String field : REQUIRED_JSON_NUMBERS)
        {
            assertThat(json).containsPattern("\"" + field + "\":[0-9][0-9.E-]*[,}]");
        }
        assertThat(directoryEntries()).isZero();
    }

    @Test
    void ingestOnFreshBaselinePagesNamesThatBaseline() throws IOException
    {
        assertThat(execute("bench", "ingest", "--records", "2000", "--baseline-records", "2000",
            "--payload-bytes", "16", "--baseline-pages", "fresh", "--data-dir", dataDirectory.toString()))
            .isEqualTo(0);

        assertThat(out.toString()).contains("raw mapped append on fresh pages, before and after, 4,000 records");
        assertThat(directoryEntries()).isZero();
    }

    @Test
    void unknownBaselinePagesAreRefusedByName()
    {
        assertThat(execute("bench", "ingest", "--baseline-pages", "warm")).isEqualTo(2);
        assertThat(err.toString()).contains("baseline pages must be prepared, allocated or fresh, was 'warm'");
    }

    @Test
    void replayPrintsTextWithTheBaselineAndTheRatio() throws IOException
    {
        assertThat(execute("bench", "replay", "--records", "3000", "--baseline-records", "3000",
            "--payload-bytes", "16", "--partitions", "2", "--data-dir", dataDirectory.toString())).isEqualTo(0);

        assertThat(out.toString())
            .contains("spool bench replay: 3,000 records of 16 B, 2 partition(s)")
            .containsPattern("raw mapped scan, mean of [0-9]+ passes, 3,000 records, same run")
            .containsPattern("spool +[0-9,]+ records/s")
            .containsPattern("ratio +[0-9.]+ of baseline")
            .contains("latency (poll of up to 256 records");
        assertThat(directoryEntries()).isZero();
    }

    @Test
    void anUnknownPeerIsRefusedByName()
    {
        assertThat(execute("bench", "ingest", "--against", "kafka")).isEqualTo(2);
        assertThat(err.toString()).contains("--against takes chronicle", "got 'kafka'");
    }

    @Test
    void aChronicleHarnessThatIsNotSetUpIsRefusedWithWhatToDo()
    {
        assertThat(execute("bench", "replay", "--against", "chronicle", "--chronicle-home",
            dataDirectory.toString())).isEqualTo(2);
        assertThat(err.toString()).contains("Chronicle Queue's peer harness is not set up in " + dataDirectory,
            "peer chronicle setup", "--chronicle-home");
    }

    @Test
    void everyBatchDurabilityCountsFsyncs()
    {
        assertThat(execute("bench", "ingest", "--records", "200", "--baseline-records", "200",
            "--payload-bytes", "16", "--durability", "every-batch", "--batch", "1", "--in-flight", "1",
            "--data-dir", dataDirectory.toString(), "--json")).isEqualTo(0);

        assertThat(out.toString()).containsPattern("\"fsyncs\":[1-9][0-9]*,");
    }

    private BenchSettings parseIngest(final String... options)
    {
        final CommandLine commandLine = SpoolCommand.newCommandLine();
        final String[] args = Stream.concat(Stream.of("bench", "ingest"), Stream.of(options)).toArray(String[]::new);
        final CommandLine.ParseResult parsed = commandLine.parseArgs(args);
        final IngestCommand ingest = (IngestCommand)parsed.subcommand().subcommand().commandSpec().userObject();
        return ingest.options.settings();
    }

    private int execute(final String... args)
    {
        return SpoolCommand.newCommandLine()
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true))
            .execute(args);
    }

    private long directoryEntries() throws IOException
    {
        try (Stream<Path> entries = Files.list(dataDirectory))
        {
            return entries.count();
        }
    }
}
