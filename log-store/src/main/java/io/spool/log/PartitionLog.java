package io.spool.log;

import io.spool.api.log.LogConfig;
import io.spool.api.log.RecordDescriptor;
import io.spool.log.internal.pipeline.IngestPipeline;
import io.spool.log.internal.pipeline.PartitionWriter;
import io.spool.log.internal.recovery.LogRecovery;
import io.spool.log.internal.segment.IdleSegmentMappings;
import io.spool.log.internal.segment.LogRetention;
import io.spool.log.internal.segment.LogSegments;
import io.spool.log.internal.segment.Segment;
import org.agrona.collections.ArrayUtil;
import org.agrona.concurrent.EpochClock;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One partition's segmented log, as its users see it: the committed end readers may read up to, waiting for it,
 * commit listeners, readers and the lookup by time. The machinery sits behind it: the segments and their retention
 * ({@link LogSegments}, {@link LogRetention}) and the writing side ({@link PartitionWriter}).
 * <p>
 * Appends come only through the ingest pipeline ({@link LogProducer}); the pipeline's append thread is the only
 * writer and its flush thread the only one to force and commit, through {@link PartitionWriter}. Readers
 * ({@link LogReader}) follow the committed end with an acquire load and never take a lock per record.
 * <p>
 * Thread-safe.
 */
public final class PartitionLog
{
    private static final CommitListener[] NO_LISTENERS = new CommitListener[0];

    private final String name;
    private final Path dir;
    /** What appends read: every setting but retention's, which never change on a live log. */
    private final LogConfig opened;
    /** Replaced whole by {@link #changeRetention}; read by retention passes and by callers, never by appends. */
    private volatile LogConfig config;
    private final EpochClock clock;
    private final IdleSegmentMappings idleMappings;
    private final FileSync fileSync;
    private final RecoveryReport recoveryReport;
    private final Object listenersLock = new Object();
    private final Object endMonitor = new Object();
    private final AtomicInteger waiters = new AtomicInteger();
    private final LogSegments segments;
    private final LogRetention retention;
    final PartitionWriter writer;
    private IngestPipeline pipeline;

    private volatile long committedOffset;
    /**
     * Every record from this offset on carries no headers: one past the last record appended with headers since the
     * log was opened, and the end offset at opening, since what came before is not known without reading it.
     */
    private final AtomicLong headerFreeFrom = new AtomicLong();
    private volatile boolean closed;
    private volatile boolean appendsClosed;
    private volatile CommitListener[] commitListeners = NO_LISTENERS;

    private PartitionLog(final String name, final Path dir, final LogConfig config, final EpochClock clock,
        final IdleSegmentMappings idleMappings, final FileSync fileSync)
    {
        this.name = name;
        this.dir = dir;
        this.opened = config;
        this.config = config;
        this.clock = clock;
        this.idleMappings = idleMappings;
        this.fileSync = fileSync;
        final LogRecovery recovery = new LogRecovery(dir, name, config, idleMappings, fileSync);
        final List<Segment> recovered = recovery.recover(clock.time());
        this.recoveryReport = recovery.report();
        this.segments = new LogSegments(recovered);
        this.writer = new PartitionWriter(name, dir, config, fileSync, idleMappings, segments, recovery.activeScan(),
            headerFreeFrom, this::publishCommitted);
        this.retention = new LogRetention(segments, dir, this::config, clock, fileSync, writer::writePosition);
        this.committedOffset = writer.nextOffset();
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
                    writer.rememberDedupId(record);
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

    /** The settings appends read (segment size, record limit, timestamps): a plain field, not the volatile one. */
    LogConfig appendSettings()
    {
        return opened;
    }

    /**
     * Keeps records by these limits from the next retention pass on: a lowered limit deletes the closed segments it
     * now excludes then. Every other setting stays as the log was opened with.
     *
     * @param retentionMillis see {@link LogConfig#retentionMillis()}
     * @param retentionBytes  see {@link LogConfig#retentionBytes()}
     * @throws IllegalArgumentException when a limit is out of range
     */
    public synchronized void changeRetention(final long retentionMillis, final long retentionBytes)
    {
        config = config.toBuilder().retentionMillis(retentionMillis).retentionBytes(retentionBytes).build();
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
        return segments.startOffset();
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

    public RecoveryReport recoveryReport()
    {
        return recoveryReport;
    }

    /** True once the log takes no more appends (closing or deleted). */
    public boolean isClosed()
    {
        return appendsClosed;
    }

    /**
     * True once the store closed this log: its readers are refused. A deleted log's readers are not: they find its
     * records gone, as retention would have left them.
     */
    boolean isClosedForReaders()
    {
        return closed && !retention.isDeleted();
    }

    public int segmentCount()
    {
        return segments.count();
    }

    /** Bytes the segments hold (headers and frames, not pre-allocated space). */
    public long sizeInBytes()
    {
        return segments.sizeInBytes(writer.writePosition());
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
        final Segment[] current = segments.snapshot();
        long from = segments.startOffset();
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
            reader.seek(Math.min(Math.max(from, segments.startOffset()), endOffset()));
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
        synchronized (listenersLock)
        {
            commitListeners = ArrayUtil.add(commitListeners, listener);
        }
    }

    public void removeCommitListener(final CommitListener listener)
    {
        synchronized (listenersLock)
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

    /** The segments the log holds: readers find theirs there. */
    LogSegments segments()
    {
        return segments;
    }

    /**
     * The holes between {@link #startOffset()} and {@link #endOffset()}: offsets damage took, found when the log was
     * opened (see {@link LogHole}); readers pass over them.
     */
    public List<LogHole> holes()
    {
        final long start = segments.startOffset();
        return recoveryReport.holes().stream().filter(hole -> hole.toOffset() > start).toList();
    }

    /**
     * Deletes closed segments older than the retention age, then the oldest while the log exceeds the retention
     * size. The active segment always stays.
     *
     * @return how many segments were deleted.
     */
    int applyRetention(final long nowMillis)
    {
        return retention.apply(nowMillis);
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
        return retention.deleteBelow(offset);
    }

    IngestPipeline pipeline()
    {
        return pipeline;
    }

    /** Attaches the log to the pipeline that will write it; before the first publish. */
    void attach(final IngestPipeline pipeline)
    {
        this.pipeline = pipeline;
        pipeline.attach(writer);
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
        writer.close();
        for (final Segment segment : segments.snapshot())
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
        retention.deleteLog();
    }

    void markClosedForAppends()
    {
        appendsClosed = true;
    }

    @Override
    public String toString()
    {
        return "PartitionLog{" + name + ", start=" + segments.startOffset() + ", end=" + committedOffset + ", segments=" +
            segments.count() + '}';
    }
}
