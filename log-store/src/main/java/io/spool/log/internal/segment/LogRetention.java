package io.spool.log.internal.segment;

import io.spool.api.log.LogConfig;
import io.spool.log.FileSync;
import org.agrona.concurrent.EpochClock;

import java.nio.file.Path;
import java.util.function.IntSupplier;
import java.util.function.Supplier;

/**
 * Retention of one partition log: drops whole segments at the head, by age and size ({@link #apply}) or below an
 * offset every queue subscription has acknowledged past ({@link #deleteBelow}), and records the new log start first.
 * Every change at the head, deleting the log included, is serialised by one lock, so that the head counted is still
 * the head when it goes: appends only add at the tail.
 * <p>
 * Thread-safe.
 */
public final class LogRetention
{
    private final Object retentionLock = new Object();
    private final LogSegments segments;
    private final Path dir;
    /** The log's settings as they are now: retention limits may change while the log is open. */
    private final Supplier<LogConfig> config;
    private final EpochClock clock;
    private final FileSync fileSync;
    /** The active segment's write position, for the log's size. */
    private final IntSupplier activeWritePosition;
    private volatile boolean deleted;

    public LogRetention(final LogSegments segments, final Path dir, final Supplier<LogConfig> config,
        final EpochClock clock, final FileSync fileSync, final IntSupplier activeWritePosition)
    {
        this.segments = segments;
        this.dir = dir;
        this.config = config;
        this.clock = clock;
        this.fileSync = fileSync;
        this.activeWritePosition = activeWritePosition;
    }

    /**
     * Deletes closed segments older than the retention age, then the oldest while the log exceeds the retention
     * size. The active segment always stays.
     *
     * @return how many segments were deleted.
     */
    public int apply(final long nowMillis)
    {
        synchronized (retentionLock)
        {
            final LogConfig now = config.get();
            return dropHead(segments.countPastRetention(nowMillis, now.retentionMillis(), now.retentionBytes(),
                activeWritePosition.getAsInt()));
        }
    }

    /**
     * Deletes the closed segments whose records all lie below {@code offset}. A segment holding a dedup id still
     * inside the dedup window stays (and so do those after it): the window is rebuilt from the log after a restart.
     *
     * @return how many segments were deleted.
     */
    public int deleteBelow(final long offset)
    {
        synchronized (retentionLock)
        {
            return dropHead(segments.countBelow(offset, clock.time() - config.get().dedupWindowMillis()));
        }
    }

    /** True once the log was deleted. */
    public boolean isDeleted()
    {
        return deleted;
    }

    /** Marks every segment deleted; files go as their last readers leave. */
    public void deleteLog()
    {
        synchronized (retentionLock)
        {
            deleted = true;
            segments.deleteAll();
        }
    }

    private int dropHead(final int drop)
    {
        if (drop == 0 || deleted)
        {
            return 0;
        }
        // Recorded before any file goes: files deleted out of offset order (an earlier one still held by a reader)
        // or not at all (a crash) must read as retention's leftovers at the next open, not as a hole. Written
        // outside the structure lock, so a roll on the append thread never waits for this force.
        LogStart.write(fileSync, dir, segments.baseOffsetAfter(drop));
        segments.dropHead(drop);
        return drop;
    }
}
