package io.spool.log;

import io.spool.api.log.Durability;
import io.spool.log.tools.LogInspector;
import io.spool.testing.CrashTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Kills a child JVM ({@link CrashingAppender}) with SIGKILL while it publishes with {@link Durability#EVERY_BATCH},
 * then reopens its log here: every confirmed record must be there, byte for byte, at its confirmed offset, the
 * offsets dense, and the log must take new appends. The rounds share one directory, so later rounds recover logs
 * that earlier recoveries produced.
 */
@CrashTest
class LogCrashTest
{
    private static final int ROUNDS = 20;
    private static final int SEGMENT_BYTES = 16 * 1024;
    private static final int MAX_CONFIRMS_BEFORE_KILL = 1000;
    private static final long LINE_TIMEOUT_SECONDS = 30;
    /** Producer id of the records this test appends itself between rounds. */
    private static final int PARENT_PRODUCER = 99;
    private static final String END_OF_OUTPUT = "";

    @TempDir
    Path dir;

    /** Offset to the value each confirm promised, across every round. */
    private final Map<Long, byte[]> confirmed = new HashMap<>();

    @Test
    void everyConfirmedRecordSurvivesSigkill() throws Exception
    {
        final SplittableRandom random = new SplittableRandom(0x5EED_C0DEL);
        final Path dataDir = dir.resolve("data");
        long segments = 0;
        for (int round = 0; round < ROUNDS; round++)
        {
            final long seed = random.nextLong() & Long.MAX_VALUE;
            final int killAfter = random.nextInt(MAX_CONFIRMS_BEFORE_KILL + 1);
            final int confirmsSeen = runAndKill(dataDir, seed, killAfter, round);
            assertThat(confirmsSeen).as("round %d confirms", round).isGreaterThanOrEqualTo(killAfter);
            final Path logDir = dataDir.resolve(CrashingAppender.LOG_NAME);
            final LogInspector.SegmentError crashDamage = LogInspector.verify(logDir).firstError();
            if (crashDamage != null)
            {
                assertThat(crashDamage.offset()).as("round %d: the inspector finds %s in a confirmed record", round,
                    crashDamage).isGreaterThan(highestConfirmed());
            }
            segments = Math.max(segments, checkRecovered(dataDir, round));
            final LogInspector.VerifyReport recovered = LogInspector.verify(logDir);
            assertThat(recovered.isHealthy()).as("round %d: after recovery %s", round, recovered.segments()).isTrue();
        }
        assertThat(segments).as("segments in the log, so rolls happened while the child ran").isGreaterThan(10);
    }

    /**
     * Starts the child, reads its confirms until {@code killAfter} of them arrived, kills it, then reads what it
     * printed before dying.
     *
     * @return how many confirms the child printed.
     */
    private int runAndKill(final Path dataDir, final long seed, final int killAfter, final int round) throws Exception
    {
        final Path stderr = dir.resolve("child-" + round + ".err");
        final Process child = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-cp", System.getProperty("java.class.path"),
            CrashingAppender.class.getName(), dataDir.toString(), Long.toString(seed), Integer.toString(SEGMENT_BYTES))
            .redirectError(stderr.toFile())
            .start();
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final Thread reader = new Thread(() -> pump(child, lines), "crash-child-reader-" + round);
        reader.setDaemon(true);
        reader.start();
        int confirms = 0;
        try
        {
            while (confirms < killAfter)
            {
                final String line = lines.poll(LINE_TIMEOUT_SECONDS, TimeUnit.SECONDS);
                if (line == null || line.equals(END_OF_OUTPUT))
                {
                    fail("round " + round + ": the child stopped after " + confirms + " confirms; its stderr:\n" +
                        Files.readString(stderr) + "\nits threads:\n" + threadDump(child));
                }
                confirms += record(line, seed);
            }
        }
        finally
        {
            // SIGKILL through the process handle: Process.destroyForcibly sends the same signal but also closes our
            // end of the pipe, which would throw away the confirms the child printed in its last moments.
            child.toHandle().destroyForcibly();
            assertThat(child.waitFor(LINE_TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("child died").isTrue();
        }
        for (String line = lines.poll(LINE_TIMEOUT_SECONDS, TimeUnit.SECONDS); !END_OF_OUTPUT.equals(line);
            line = lines.poll(LINE_TIMEOUT_SECONDS, TimeUnit.SECONDS))
        {
            assertThat(line).as("round %d: output after the kill ends", round).isNotNull();
            confirms += record(line, seed);
        }
        assertThat(Files.readString(stderr)).as("round %d: the child's errors", round)
            .doesNotContain("failed").doesNotContain("Exception");
        return confirms;
    }

    /** The child's threads as jcmd prints them, to tell a hang from a crash when the child goes quiet. */
    private String threadDump(final Process child) throws IOException, InterruptedException
    {
        final Path dump = dir.resolve("child-threads.txt");
        final Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
            Long.toString(child.pid()), "Thread.print")
            .redirectErrorStream(true).redirectOutput(dump.toFile()).start();
        if (!jcmd.waitFor(LINE_TIMEOUT_SECONDS, TimeUnit.SECONDS))
        {
            jcmd.destroyForcibly();
        }
        return Files.readString(dump);
    }

    private long highestConfirmed()
    {
        return confirmed.keySet().stream().mapToLong(Long::longValue).max().orElse(-1);
    }

    private static void pump(final Process child, final BlockingQueue<String> lines)
    {
        try (BufferedReader in = new BufferedReader(
            new InputStreamReader(child.getInputStream(), StandardCharsets.US_ASCII)))
        {
            for (String line = in.readLine(); line != null; line = in.readLine())
            {
                lines.add(line);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        finally
        {
            lines.add(END_OF_OUTPUT);
        }
    }

    /**
     * Remembers the value a complete confirm line promises.
     *
     * @return 1 for a confirm, 0 for the line a kill cut short.
     */
    private int record(final String line, final long seed)
    {
        final String[] parts = line.split(" ");
        if (parts.length != 6 || !parts[0].equals("C") || !parts[5].equals("."))
        {
            return 0;
        }
        final long offset = Long.parseLong(parts[1]);
        final int producer = Integer.parseInt(parts[2]);
        final int sequence = Integer.parseInt(parts[3]);
        final int crc = Integer.parseInt(parts[4]);
        final byte[] promised = CrashingAppender.value(seed, producer, sequence);
        assertThat(CrashingAppender.checksum(promised)).as("checksum printed for offset %d", offset).isEqualTo(crc);
        final byte[] previous = confirmed.put(offset, promised);
        assertThat(previous).as("offset %d confirmed twice", offset).isNull();
        return 1;
    }

    /**
     * Opens the log in process and checks it against the confirms so far, then appends one record of its own.
     *
     * @return the number of segments the log has.
     */
    private long checkRecovered(final Path dataDir, final int round)
    {
        try (LogFixture fx = new LogFixture(dataDir))
        {
            final PartitionLog log = fx.store.openLog(CrashingAppender.LOG_NAME,
                CrashingAppender.logConfig(SEGMENT_BYTES));
            final long end = log.endOffset();
            assertThat(log.startOffset()).isZero();
            final List<String> problems = new ArrayList<>();
            final long[] expected = {0};
            try (LogReader reader = log.newReader())
            {
                while (reader.poll(r ->
                {
                    if (r.offset() != expected[0])
                    {
                        problems.add("offset " + r.offset() + " where " + expected[0] + " was expected");
                    }
                    expected[0] = r.offset() + 1;
                    final byte[] stored = r.valueBytes();
                    if (!Arrays.equals(stored, CrashingAppender.regenerate(stored)))
                    {
                        problems.add("offset " + r.offset() + " holds a value no producer wrote");
                    }
                    final byte[] promised = confirmed.get(r.offset());
                    if (promised != null && !Arrays.equals(stored, promised))
                    {
                        problems.add("offset " + r.offset() + " differs from its confirmed value");
                    }
                }, 1000) > 0)
                {
                    continue;
                }
            }
            assertThat(problems).as("round %d: %s", round, log.recoveryReport()).isEmpty();
            assertThat(expected[0]).as("records read up to the end offset").isEqualTo(end);
            assertThat(end).as("round %d: end offset covers every confirm; %s", round, log.recoveryReport())
                .isGreaterThan(highestConfirmed());

            final byte[] own = CrashingAppender.value(round, PARENT_PRODUCER, round);
            final long ownOffset = fx.store.newProducer().appendAndWait(log, null, null, own);
            assertThat(ownOffset).isEqualTo(end);
            confirmed.put(ownOffset, own);
            assertThat(LogFixture.readAll(log, ownOffset)).hasSize(1);
            return log.segmentCount();
        }
    }
}
