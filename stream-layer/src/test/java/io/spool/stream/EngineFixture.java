package io.spool.stream;

import io.spool.api.log.LogConfig;
import io.spool.api.stream.TopicConfig;
import io.spool.log.LogStoreConfig;
import org.agrona.concurrent.CachedEpochClock;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.fail;

/**
 * Opens engines on a test directory with a hand-driven clock and no background maintenance, and small segments so
 * tests roll and delete segments without writing megabytes.
 */
final class EngineFixture
{
    static final LogConfig SMALL_SEGMENTS = LogConfig.builder()
        .segmentBytes(64 * 1024)
        .maxRecordBytes(16 * 1024)
        .indexIntervalBytes(1024)
        .build();
    static final Duration NO_WAIT = Duration.ZERO;
    static final Duration SHORT_WAIT = Duration.ofMillis(20);
    static final Duration LONG_WAIT = Duration.ofSeconds(30);

    final Path dir;
    final CachedEpochClock clock = new CachedEpochClock();

    EngineFixture(final Path dir)
    {
        this.dir = dir;
        clock.update(1_700_000_000_000L);
    }

    StreamEngine open()
    {
        return StreamEngine.open(dir, new StreamEngineConfig(LogStoreConfig.builder()
            .clock(clock)
            .backgroundMaintenance(false)
            .ringSize(1024)
            .build(), false));
    }

    static TopicConfig topic(final int partitions)
    {
        return TopicConfig.of(partitions).withLog(SMALL_SEGMENTS);
    }

    static byte[] bytes(final String text)
    {
        return text == null ? null : text.getBytes(StandardCharsets.UTF_8);
    }

    static String text(final byte[] bytes)
    {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    /** Waits, without sleeping, until the condition holds or fails the test after thirty seconds. */
    static void awaitCondition(final String what, final BooleanSupplier condition)
    {
        final long deadline = System.nanoTime() + LONG_WAIT.toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                fail("timed out waiting until " + what);
            }
            // a short park between checks keeps the waiting thread off the two shared cores
            LockSupport.parkNanos(100_000);
        }
    }
}
