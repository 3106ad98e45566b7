package io.spool.log;

import io.spool.log.internal.recovery.LogRecovery;
import io.spool.log.internal.segment.IdleSegmentMappings;
import io.spool.log.internal.segment.LogStart;
import io.spool.log.internal.segment.Segment;
import org.agrona.concurrent.EpochClock;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One partition's segmented log: the segments, the committed end readers may read up to, and retention.
 * <p>
 * Appends come only through the ingest pipeline ({@link LogProducer}); the pipeline's append thread is the only
 * writer ({@link LogAppender}) and its flush thread the only one to force and commit ({@link LogFlusher}). Readers
 * ({@link LogReader}) follow the committed end with an acquire load and never take a lock per record.
 * <p>
 * Thread-safe.
 */
public final class PartitionLog
{
    private static final Segment[] NO_SEGMENTS = new Segment[0];
    private static final CommitListener[] NO_LISTENERS = new CommitListener[0];

    private final String name;
    private final Path dir;
    private final LogConfig config;
    private final EpochClock clock;
    private final IdleSegmentMappings idleMappings;
    private final FileSync fileSync;
    private final RecoveryReport recoveryReport;
    private final Object structureLock = new Object();
    /** Serialises the changes at the log's head: retention, and deleting the log. */
    private final Object retentionLock = new Object();
    private final Object endMonitor = new Object();
    private final AtomicInteger waiters = new AtomicInteger();
    final LogAppender appender;
    final LogFlusher flusher;
    private IngestPipeline pipeline;

    private volatile Segment[] segments = NO_SEGMENTS;
    private volatile long committedOffset;
    /**
     * Every record from this offset on carries no headers: one past the last record appended with headers since the
     * log was opened, and the end offset at opening, since what came before is not known without reading it.
     */
    private final AtomicLong headerFreeFrom = new AtomicLong();
    private volatile long startOffset;
    private volatile boolean closed;
    private volatile boolean appendsClosed;
    private volatile boolean deleted;
    private volatile CommitListener[] commitListeners = NO_LISTENERS;

    private PartitionLog(final String name, final Path dir, final LogConfig config, final EpochClock clock,
        final IdleSegmentMappings idleMappings, final FileSync fileSync)
    {
        this.name = name;
        this.dir = dir;
        this.config = config;
        this.clock = clock;
        this.idleMappings = idleMappings;
        this.fileSync = fileSync;
        final LogRecovery recovery = new LogRecovery(dir, name, config, idleMappings, fileSync);
        final List<Segment> recovered = recovery.recover(clock.time());
        this.recoveryReport = recovery.report();
        this.segments = recovered.toArray(NO_SEGMENTS);
        final Segment active = segments[segments.length - 1];
        this.appender = new LogAppender(this, active, recovery.activeScan());
        this.flusher = new LogFlusher(this, active, appender.writePosition());
        this.startOffset = segments[0].baseOffset();
        this.committedOffset = appender.nextOffset();
        this.headerFreeFrom.set(committedOffset);
        rememberDedupIds(clock.time() - config.dedupWindowMillis());
    }

    /** Refills the appender's dedup index from the records stored inside the window. */
    private void rememberDedupIds(final long windowStart)
    {
        try (LogReader reader = newReader())
        {
            reader.seek(offsetForTimestamp(windowStart));
            final RecordHandler remember = record ->
            {
                if ((record.attributes() & RecordDescriptor.ATTRIBUTE_DEDUP) != 0 && record.timestamp() > windowStart)
                {
                    appender.rememberDedupId(record);
                }
            };
            while (reader.poll(remember, 4096) > 0)
            {
                continue;
            }
        }
    }

    /**
     * Opens (recovering) or creates the log in {@code dir}. The caller attaches it to a pipeline before publishing.
     */
    static PartitionLog open(final String name, final Path dir, final LogConfig config, final EpochClock clock,
        final IdleSegmentMappings idleMappings, final FileSync fileSync)
    {
        DurableFiles.createDirectories(fileSync, dir);
        return new PartitionLog(name, dir, config, clock, idleMappings, fileSync);
    }

    public String name()
    {
        return name;
    }

    public LogConfig config()
    {
        return config;
    }

    Path dir()
    {
        return dir;
    }

    EpochClock clock()
    {
        return clock;
    }

    FileSync fileSync()
    {
        return fileSync;
    }

    IdleSegmentMappings idleMappings()
    {
        return idleMappings;
    }

    /** The earliest offset still held. */
    public long startOffset()
    {
        return startOffset;
    }

    /** The next offset to be assigned; every record below it is committed and readable. */
    public long endOffset()
    {
        return committedOffset;
    }

    /**
     * The offset from which every committed record is known to carry no headers, so that a reader that needs to know
     * only whether records have headers can pass them without reading them. Read it after {@link #endOffset()}: it
     * then covers every record below that end.
     */
    public long headerFreeFrom()
    {
        return headerFreeFrom.get();
    }

    /**
     * Append thread: the record at {@code offset}, not committed yet, carries headers. A release store, ordered
     * before the commit that makes the record readable.
     */
    void appendedWithHeaders(final long offset)
    {
        headerFreeFrom.lazySet(offset + 1);
    }

    public RecoveryReport recoveryReport()
    {
        return recoveryReport;
    }

    /** True once the log takes no more appends (closing or deleted). */
    public boolean isClosed()
    {
        return appendsClosed;
    }

    /** True once {@link #close()} ran: the appender refuses what is still in the ring for this log. */
    boolean isClosedForWriter()
    {
        return closed;
    }

    /**
     * True once the store closed this log: its readers are refused. A deleted log's readers are not: they find its
     * records gone, as retention would have left them.
     */
    boolean isClosedForReaders()
    {
        return closed && !deleted;
    }

    public int segmentCount()
    {
        return segments.length;
    }

    /** Bytes the segments hold (headers and frames, not pre-allocated space). */
    public long sizeInBytes()
    {
        final Segment[] current = segments;
        long total = 0;
        for (int i = 0; i < current.length - 1; i++)
        {
            total += current[i].sizeBytes();
        }
        return total + appender.writePosition();
    }

    /** A cursor at {@link #startOffset()}; close it when done, it may hold a mapped segment. */
    public LogReader newReader()
    {
        return new LogReader(this);
    }

    /**
     * The first offset whose timestamp is at or after {@code timestampMillis}, or {@link #endOffset()} when none is.
     */
    public long offsetForTimestamp(final long timestampMillis)
    {
        final Segment[] current = segments;
        long from = startOffset;
        for (int i = 0; i < current.length; i++)
        {
            final Segment segment = current[i];
            if (segment.isClosed() && segment.maxTimestamp() < timestampMillis)
            {
                continue;
            }
            if (!segment.acquire())
            {
                continue;
            }
            try
            {
                from = Math.max(from, segment.baseOffset() + segment.timeIndex().scanStartFor(timestampMillis));
            }
            finally
            {
                segment.release();
            }
            break;
        }
        final long[] found = {-1};
        try (LogReader reader = newReader())
        {
            reader.seek(Math.min(Math.max(from, startOffset), endOffset()));
            while (found[0] < 0 && reader.poll(record ->
            {
                if (found[0] < 0 && record.timestamp() >= timestampMillis)
                {
                    found[0] = record.offset();
                }
            }, 1024) > 0)
            {
                continue;
            }
        }
        return found[0] < 0 ? endOffset() : found[0];
    }

    /**
     * Parks the caller until {@link #endOffset()} is above {@code offset}, the timeout passes or the log closes.
     *
     * @return true when data above {@code offset} is readable.
     */
    public boolean awaitEndAbove(final long offset, final long timeoutNanos) throws InterruptedException
    {
        if (committedOffset > offset)
        {
            return true;
        }
        waiters.incrementAndGet();
        try
        {
            final long deadline = System.nanoTime() + timeoutNanos;
            synchronized (endMonitor)
            {
                while (committedOffset <= offset && !closed)
                {
                    final long remaining = deadline - System.nanoTime();
                    if (remaining <= 0)
                    {
                        break;
                    }
                    TimeUnit.NANOSECONDS.timedWait(endMonitor, remaining);
                }
            }
            return committedOffset > offset;
        }
        finally
        {
            waiters.decrementAndGet();
        }
    }

    /** Adds a listener told of every commit; see {@link CommitListener}. */
    public void addCommitListener(final CommitListener listener)
    {
        synchronized (structureLock)
        {
            final CommitListener[] current = commitListeners;
            final CommitListener[] next = Arrays.copyOf(current, current.length + 1);
            next[current.length] = listener;
            commitListeners = next;
        }
    }

    public void removeCommitListener(final CommitListener listener)
    {
        synchronized (structureLock)
        {
            commitListeners = Arrays.stream(commitListeners).filter(l -> l != listener).toArray(CommitListener[]::new);
        }
    }

    /**
     * Flush thread: makes records below {@code endOffset} visible, then wakes whoever waits for them.
     */
    void publishCommitted(final long endOffset)
    {
        committedOffset = endOffset;
        if (waiters.get() > 0)
        {
            synchronized (endMonitor)
            {
                endMonitor.notifyAll();
            }
        }
        for (final CommitListener listener : commitListeners)
        {
            listener.onCommitted(this, endOffset);
        }
    }

    Segment[] segments()
    {
        return segments;
    }

    /**
     * The segment holding {@code offset}, or when it lies in a hole the first segment after the hole; null if below
     * the start. From one snapshot of the segment list.
     */
    Segment segmentHolding(final long offset)
    {
        final Segment[] current = segments;
        int low = 0;
        int high = current.length - 1;
        int found = -1;
        while (low <= high)
        {
            final int mid = (low + high) >>> 1;
            if (current[mid].baseOffset() <= offset)
            {
                found = mid;
                low = mid + 1;
            }
            else
            {
                high = mid - 1;
            }
        }
        if (found < 0)
        {
            return null;
        }
        final Segment floor = current[found];
        final boolean inHoleAfter = floor.isClosed() && offset >= floor.endOffset() && found + 1 < current.length;
        return inHoleAfter ? current[found + 1] : floor;
    }

    /**
     * The holes between {@link #startOffset()} and {@link #endOffset()}: offsets damage took, found when the log was
     * opened (see {@link LogHole}); readers pass over them.
     */
    public List<LogHole> holes()
    {
        final long start = startOffset;
        return recoveryReport.holes().stream().filter(hole -> hole.toOffset() > start).toList();
    }

    /** The segment appends go to; read off the writer thread it may already have been rolled past. */
    Segment activeSegment()
    {
        final Segment[] current = segments;
        return current.length == 0 ? null : current[current.length - 1];
    }

    void addSegment(final Segment segment)
    {
        synchronized (structureLock)
        {
            final Segment[] current = segments;
            final Segment[] next = Arrays.copyOf(current, current.length + 1);
            next[current.length] = segment;
            segments = next;
        }
    }

    /**
     * Deletes closed segments older than the retention age, then the oldest while the log exceeds the retention
     * size. The active segment always stays.
     *
     * @return how many segments were deleted.
     */
    int applyRetention(final long nowMillis)
    {
        synchronized (retentionLock)
        {
            int drop = 0;
            synchronized (structureLock)
            {
                final Segment[] current = segments;
                long size = sizeInBytes();
                while (drop < current.length - 1)
                {
                    final Segment oldest = current[drop];
                    final boolean tooOld = config.retentionMillis() > 0 &&
                        nowMillis - oldest.maxTimestamp() > config.retentionMillis();
                    final boolean tooBig = config.retentionBytes() > 0 &&
                        size - oldest.sizeBytes() >= config.retentionBytes();
                    if (!tooOld && !tooBig)
                    {
                        break;
                    }
                    size -= oldest.sizeBytes();
                    drop++;
                }
            }
            return dropHead(drop);
        }
    }

    /**
     * Deletes the closed segments whose records all lie below {@code offset}; queues call this once every
     * subscription has acknowledged past them. A segment holding a dedup id still inside the dedup window stays
     * (and so do those after it): the window is rebuilt from the log after a restart.
     *
     * @return how many segments were deleted.
     */
    public int deleteSegmentsBelow(final long offset)
    {
        synchronized (retentionLock)
        {
            int drop = 0;
            synchronized (structureLock)
            {
                final Segment[] current = segments;
                final long dedupHorizon = clock.time() - config.dedupWindowMillis();
                while (drop < current.length - 1 && current[drop].endOffset() <= offset &&
                    !(current[drop].hasDedupRecords() && current[drop].maxTimestamp() > dedupHorizon))
                {
                    drop++;
                }
            }
            return dropHead(drop);
        }
    }

    /**
     * Takes the {@code drop} oldest segments out of the log. The caller holds {@link #retentionLock}, so the head
     * counted is still the head: appends only add at the tail.
     */
    private int dropHead(final int drop)
    {
        if (drop == 0 || deleted)
        {
            return 0;
        }
        // Recorded before any file goes: files deleted out of offset order (an earlier one still held by a reader)
        // or not at all (a crash) must read as retention's leftovers at the next open, not as a hole. Written
        // outside the structure lock, so a roll on the append thread never waits for this force.
        LogStart.write(fileSync, dir, segments[drop].baseOffset());
        synchronized (structureLock)
        {
            final Segment[] current = segments;
            final Segment[] next = Arrays.copyOfRange(current, drop, current.length);
            startOffset = next[0].baseOffset();
            segments = next;
            for (int i = 0; i < drop; i++)
            {
                current[i].markDeleted();
            }
        }
        return drop;
    }

    IngestPipeline pipeline()
    {
        return pipeline;
    }

    void attach(final IngestPipeline pipeline)
    {
        this.pipeline = pipeline;
    }

    /**
     * Closes after the pipeline has drained this log: releases the writer's segment, unmaps the idle ones and wakes
     * waiting readers.
     */
    void close()
    {
        if (closed)
        {
            return;
        }
        appendsClosed = true;
        closed = true;
        flusher.releaseSegment();
        for (final Segment segment : segments)
        {
            segment.evictIdleMapping();
        }
        synchronized (endMonitor)
        {
            endMonitor.notifyAll();
        }
    }

    /** Marks every segment deleted; files go as their last readers leave. Call after {@link #close()}. */
    void deleteSegments()
    {
        synchronized (retentionLock)
        {
            deleted = true;
            synchronized (structureLock)
            {
                for (final Segment segment : segments)
                {
                    segment.markDeleted();
                }
                segments = NO_SEGMENTS;
            }
        }
    }

    void markClosedForAppends()
    {
        appendsClosed = true;
    }

    @Override
    public String toString()
    {
        return "PartitionLog{" + name + ", start=" + startOffset + ", end=" + committedOffset + ", segments=" +
            segments.length + '}';
    }
}
