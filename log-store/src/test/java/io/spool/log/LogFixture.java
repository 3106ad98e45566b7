package io.spool.log;

import io.spool.api.SpoolException;
import io.spool.api.log.LogConfig;
import org.agrona.concurrent.CachedEpochClock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

/**
 * A store on a test directory with a hand-driven clock and no background maintenance, plus small helpers to append
 * and read back. Shared with the modules above through the test jar.
 */
public final class LogFixture implements AutoCloseable
{
    public final Path dir;
    public final CachedEpochClock clock = new CachedEpochClock();
    public LogStore store;

    public LogFixture(final Path dir)
    {
        this.dir = dir;
        clock.update(1_000_000L);
        reopen();
    }

    public LogFixture reopen()
    {
        if (store != null)
        {
            store.close();
        }
        store = LogStore.open(dir, LogStoreConfig.builder().clock(clock).backgroundMaintenance(false)
            .ringSize(1024).build());
        return this;
    }

    public static LogConfig smallSegments(final int segmentBytes)
    {
        return LogConfig.builder().segmentBytes(segmentBytes).maxRecordBytes(Math.min(4096, segmentBytes / 2))
            .indexIntervalBytes(256).build();
    }

    public static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    public static String text(final byte[] bytes)
    {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }

    public long append(final PartitionLog log, final String key, final String value)
    {
        return store.newProducer().appendAndWait(log, key == null ? null : bytes(key), null,
            value == null ? null : bytes(value));
    }

    /**
     * Copies a running engine's directory into {@code image}: what a process killed now would leave on disk, since
     * every write the engine finished is in the page cache, mapped segments included, whether or not it was forced.
     * Each file reads back byte for byte as it was, at its length; the zeros at its end are a hole in the copy
     * ({@link CrashImageFile}).
     */
    public static void copyCrashImage(final Path dir, final Path image)
    {
        try (Stream<Path> paths = Files.walk(dir))
        {
            for (final Path path : paths.sorted().toList())
            {
                final Path target = image.resolve(dir.relativize(path).toString());
                if (Files.isDirectory(path))
                {
                    Files.createDirectories(target);
                }
                else
                {
                    CrashImageFile.copy(path, target);
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Flips a byte inside {@code value} where the segment of {@code logDir} that holds it stores it, so that its
     * record's CRC no longer holds: in the active segment recovery cuts the log there, in a closed one it is a hole.
     */
    public static void damageRecordHolding(final Path logDir, final byte[] value)
    {
        try (Stream<Path> files = Files.list(logDir))
        {
            for (final Path segment : files.filter(file -> file.toString().endsWith(".log")).sorted().toList())
            {
                final byte[] bytes = Files.readAllBytes(segment);
                for (int at = 0; at + value.length <= bytes.length; at++)
                {
                    if (java.util.Arrays.equals(bytes, at, at + value.length, value, 0, value.length))
                    {
                        bytes[at + value.length / 2] ^= 0x20;
                        Files.write(segment, bytes);
                        return;
                    }
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        throw new AssertionError("no segment of " + logDir + " holds the value");
    }

    /** A confirm listener that keeps the first failure it is told of. */
    public static ConfirmListener recordingFailures(final AtomicReference<SpoolException> failure)
    {
        return new ConfirmListener()
        {
            @Override
            public void onConfirmed(final long correlation, final long offset)
            {
            }

            @Override
            public void onFailed(final long correlation, final SpoolException error)
            {
                failure.compareAndSet(null, error);
            }
        };
    }

    /** Every committed record from {@code from} as "offset:key:value" lines. */
    public static List<String> readAll(final PartitionLog log, final long from)
    {
        final List<String> out = new ArrayList<>();
        try (LogReader reader = log.newReader())
        {
            reader.seek(from);
            while (reader.poll(r -> out.add(r.offset() + ":" + text(r.keyBytes()) + ":" + text(r.valueBytes())), 100) > 0)
            {
                continue;
            }
        }
        return out;
    }

    @Override
    public void close()
    {
        store.close();
    }
}
