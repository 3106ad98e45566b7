package io.spool.model;

import io.spool.api.log.LogConfig;
import io.spool.api.stream.TopicConfig;
import io.spool.log.FileSync;
import io.spool.log.LogFixture;
import io.spool.log.PageCacheFileSync;
import io.spool.queue.StateStoreConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * What the properties' engines share: topics of tiny segments, and data directories, one per sequence, removed
 * when the sequence ends.
 */
final class Engines
{
    /**
     * Every engine of the properties forces nothing: their crashes are a killed process (a copy of the page cache,
     * {@link #crashImage}), which no force changes, and the forces were much of their time. What survives a power
     * loss is {@code PowerLossTest}'s to check.
     */
    static final FileSync FILE_SYNC = PageCacheFileSync.INSTANCE;

    /**
     * The smallest state journal window: a journal grows by its window when first written, and a crash image and
     * the recovery after it read the whole file, which at the default window was most of a crash's time.
     */
    static final int STATE_JOURNAL_WINDOW_BYTES = StateStoreConfig.MIN_JOURNAL_WINDOW_BYTES;

    private static final Path MEMORY_FILE_SYSTEM = Path.of("/dev/shm");
    private static final long DEDUP_WINDOW_MILLIS = 24 * 3_600_000L;

    private Engines()
    {
    }

    /**
     * A topic whose segments hold a few of the properties' records, so that sequences roll segments, and whose files
     * are small enough that opening an engine for every sequence stays cheap. Its dedup window is longer than any
     * sequence's clock moves, so that a repeated dedup id is a duplicate wherever it comes.
     */
    static TopicConfig topicOfTinySegments(final int partitions)
    {
        return topicOfTinySegments(partitions, DEDUP_WINDOW_MILLIS);
    }

    /** As {@link #topicOfTinySegments(int)}, with a dedup window of its own, which sequences may outlast. */
    static TopicConfig topicOfTinySegments(final int partitions, final long dedupWindowMillis)
    {
        return TopicConfig.of(partitions).withLog(LogConfig.builder().segmentBytes(1024).maxRecordBytes(960)
            .indexIntervalBytes(128).dedupWindowMillis(dedupWindowMillis).build());
    }

    /**
     * A new data directory, on the memory file system when the machine has one ({@code /dev/shm}), else in the
     * temporary directory. The properties check the engine against a model, not a disk (their crashes copy the page
     * cache, their engines force nothing), and on a shared machine's disk the files created and deleted for every
     * sequence and crash were most of the properties' time.
     */
    static Path temporaryDirectory(final String prefix)
    {
        try
        {
            return Files.isDirectory(MEMORY_FILE_SYSTEM) && Files.isWritable(MEMORY_FILE_SYSTEM)
                ? Files.createTempDirectory(MEMORY_FILE_SYSTEM, prefix)
                : Files.createTempDirectory(prefix);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Copies a running engine's directory: what a process killed now would leave on disk, since every write the
     * engine finished is in the page cache, mapped segments included, whether or not it was forced.
     * <p>
     * The copy is not one instant, so its order must be one a real crash could leave: the queue state first, then,
     * listed afresh, the topics and the rest. A journal may say a dead letter is stored only once the dead-letter
     * topic holds it, and that letter may be in a segment created while the queue state was copied.
     */
    static Path crashImage(final Path dir)
    {
        final Path image = temporaryDirectory("spool-crash-image");
        final Path queueState = dir.resolve("queue");
        if (Files.isDirectory(queueState))
        {
            LogFixture.copyCrashImage(queueState, image.resolve("queue"));
        }
        try (Stream<Path> entries = Files.list(dir))
        {
            for (final Path entry : entries.sorted().toList())
            {
                if (entry.equals(queueState))
                {
                    continue;
                }
                if (Files.isDirectory(entry))
                {
                    LogFixture.copyCrashImage(entry, image.resolve(entry.getFileName().toString()));
                }
                else
                {
                    Files.copy(entry, image.resolve(entry.getFileName().toString()));
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return image;
    }

    static void deleteDirectory(final Path dir)
    {
        try (Stream<Path> paths = Files.walk(dir))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
