package io.spool.perf.cli;

import io.spool.api.log.LogConfig;
import io.spool.log.LogProducer;
import io.spool.log.LogStore;
import io.spool.log.LogStoreConfig;
import io.spool.log.PartitionLog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class VerifyAndDumpCommandTest
{
    /** The segment header comes first; the first frame follows it. */
    private static final int FIRST_FRAME_POSITION = 64;

    @TempDir
    Path dataDirectory;
    private Path logDirectory;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void writeALog()
    {
        try (LogStore store = LogStore.open(dataDirectory, LogStoreConfig.builder()
            .backgroundMaintenance(false).build()))
        {
            final PartitionLog log = store.openLog("topics/orders/0", LogConfig.DEFAULT);
            final LogProducer producer = store.newProducer();
            for (int i = 0; i < 5; i++)
            {
                producer.appendAndWait(log, ("key-" + i).getBytes(StandardCharsets.UTF_8), null,
                    ("value-" + i).getBytes(StandardCharsets.UTF_8));
            }
        }
        logDirectory = dataDirectory.resolve("topics/orders/0");
    }

    @Test
    void verifyFindsTheLogsUnderADataDirectoryAndReportsThemHealthy()
    {
        assertThat(execute("verify", dataDirectory.toString())).isEqualTo(0);

        assertThat(out.toString())
            .contains("log " + logDirectory + ": 1 segments")
            .contains("offsets 0..4, 5 records")
            .contains("healthy")
            .contains("1 of 1 logs healthy");
    }

    @Test
    void verifyNamesEachDamagedSmallFileAndWhatAnOpenDoesAboutIt(@TempDir final Path engineDirectory)
        throws IOException
    {
        try (io.spool.Spool spool = io.spool.Spool.builder(engineDirectory).backgroundMaintenance(false).open())
        {
            spool.createTopic("orders", io.spool.api.stream.TopicConfig.of(1));
            spool.createSubscription("billing", "orders", io.spool.api.queue.SubscriptionSettings.DEFAULT);
            spool.createSubscription("shipping", "orders", io.spool.api.queue.SubscriptionSettings.DEFAULT);
            spool.newProducer().send("orders", null, "one".getBytes(StandardCharsets.UTF_8)).join();
        }
        assertThat(execute("verify", engineDirectory.toString())).isEqualTo(0);
        assertThat(out.toString()).contains("topic metadata, catalogs and snapshots healthy");

        flipAByte(engineDirectory.resolve("stream/topics.meta"));
        flipAByte(engineDirectory.resolve("queue/billing/0/snapshot.bin"));
        flipAByte(engineDirectory.resolve("queue/billing/0/snapshot.bin.bak"));
        out.getBuffer().setLength(0);

        assertThat(execute("verify", engineDirectory.toString())).isEqualTo(VerifyCommand.UNHEALTHY);
        assertThat(out.toString())
            .contains("damaged: stream/topics.meta")
            .contains("its copy is whole: an open restores it from the copy")
            .containsPattern("damaged: queue.billing.0.snapshot.bin .*, and its copy .*: an open quarantines " +
                "subscription billing")
            .doesNotContain("shipping")
            .contains("2 small files damaged");
    }

    private static void flipAByte(final Path file) throws IOException
    {
        final byte[] bytes = Files.readAllBytes(file);
        bytes[bytes.length / 2] ^= 0x01;
        Files.write(file, bytes);
    }

    @Test
    void verifyReportsADamagedRecordAndExitsWithOne() throws IOException
    {
        try (RandomAccessFile segment = new RandomAccessFile(
            logDirectory.resolve("00000000000000000000.log").toFile(), "rw"))
        {
            final long valuePosition = FIRST_FRAME_POSITION + 45;
            segment.seek(valuePosition);
            final int original = segment.read();
            segment.seek(valuePosition);
            segment.write(original ^ 0xFF);
        }

        assertThat(execute("verify", logDirectory.toString())).isEqualTo(VerifyCommand.UNHEALTHY);

        assertThat(out.toString())
            .contains("damaged: recovery would cut the active segment at offset 0")
            .contains("0 of 1 logs healthy");
    }

    @Test
    void verifyOfADirectoryWithoutLogsIsAnError() throws IOException
    {
        final Path empty = Files.createDirectory(dataDirectory.resolve("empty"));

        assertThat(execute("verify", empty.toString())).isEqualTo(1);

        assertThat(err.toString()).contains("no log (a directory of segment files) under " + empty);
    }

    @Test
    void dumpPrintsTheRecordsFromAnOffsetOneLineEach()
    {
        assertThat(execute("dump", logDirectory.toString(), "--from", "2", "--count", "2")).isEqualTo(0);

        assertThat(out.toString().lines())
            .hasSize(2)
            .satisfiesExactly(
                line -> assertThat(line).startsWith("offset=2 ").contains("key=\"key-2\"", "value=7 bytes \"value-2\""),
                line -> assertThat(line).startsWith("offset=3 ").contains("key=\"key-3\""));
    }

    @Test
    void dumpRefusesANegativeOffsetOrCount()
    {
        assertThat(execute("dump", logDirectory.toString(), "--from", "-5")).isEqualTo(2);
        assertThat(err.toString()).contains("--from must be an offset of 0 or more, was -5");
        assertThat(execute("dump", logDirectory.toString(), "--count", "-1")).isEqualTo(2);
        assertThat(err.toString()).contains("--count must be 0 or more, was -1");
        assertThat(out.toString()).doesNotContain("offset=");
    }

    @Test
    void dumpOfADirectoryThatIsNoLogIsAnError()
    {
        assertThat(execute("dump", dataDirectory.toString())).isEqualTo(1);

        assertThat(err.toString()).contains("not a log directory (no segment files): " + dataDirectory);
    }

    private int execute(final String... args)
    {
        return SpoolCommand.newCommandLine()
            .setOut(new PrintWriter(out, true))
            .setErr(new PrintWriter(err, true))
            .execute(args);
    }
}
