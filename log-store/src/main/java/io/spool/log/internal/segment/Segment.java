package io.spool.log.internal.segment;

import io.spool.api.log.LogConfig;
import io.spool.log.FileSync;
import io.spool.log.internal.pipeline.SegmentPrefaulter;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.spool.log.internal.segment.SegmentDescriptor.*;

/**
 * One segment of a partition log: its record file and the two sparse indexes beside it, and the life cycle of their
 * memory mappings.
 * <p>
 * Design note: a closed segment is mapped only while somebody holds a reference to it, or while it is among the
 * store's few most recently read ones ({@link IdleSegmentMappings}), so a log with thousands of segments keeps no
 * file descriptor open and maps only what is being read or was just read. The active segment is held by the
 * writer; after a roll that reference passes to the flush stage, which drops it once it has forced the segment.
 * Retention marks a segment deleted; its files go when the last reference is released, so a slow reader can finish
 * the segment it is in. Reference changes take this object's monitor: they happen once per segment a reader enters,
 * never per record.
 * <p>
 * Thread-safe.
 */
public final class Segment
{
    private final long baseOffset;
    private final Path logPath;
    private final Path offsetIndexPath;
    private final Path timeIndexPath;
    private final IdleSegmentMappings idleMappings;

    private volatile boolean closed;
    private volatile long endOffset;
    private volatile int sizeBytes;
    private volatile long maxTimestamp;
    private volatile long firstTimestamp;
    private volatile boolean hasDedupRecords;

    private int refs;
    private boolean deleted;
    private boolean filesDeleted;
    private MappedByteBuffer logMap;
    private MappedByteBuffer offsetIndexMap;
    private MappedByteBuffer timeIndexMap;
    private UnsafeBuffer buffer;
    private OffsetIndex offsetIndex;
    private TimeIndex timeIndex;
    private int activeCapacity;
    private PageCacheFill fill;

    private Segment(final Path dir, final long baseOffset, final IdleSegmentMappings idleMappings)
    {
        this.baseOffset = baseOffset;
        this.idleMappings = idleMappings;
        this.logPath = dir.resolve(fileName(baseOffset, LOG_SUFFIX));
        this.offsetIndexPath = dir.resolve(fileName(baseOffset, OFFSET_INDEX_SUFFIX));
        this.timeIndexPath = dir.resolve(fileName(baseOffset, TIME_INDEX_SUFFIX));
    }

    /**
     * Creates a new, empty, pre-allocated active segment, mapped and held by the writer.
     */
    public static Segment createActive(final Path dir, final long baseOffset, final LogConfig config, final long nowMillis,
        final IdleSegmentMappings idleMappings)
    {
        final Segment segment = new Segment(dir, baseOffset, idleMappings);
        try
        {
            SegmentFiles.createRecordFile(segment.logPath, baseOffset);
            SegmentFiles.writeIndexHeader(segment.offsetIndexPath, OFFSET_INDEX_MAGIC, OFFSET_INDEX_ENTRY_LENGTH);
            SegmentFiles.writeIndexHeader(segment.timeIndexPath, TIME_INDEX_MAGIC, TIME_INDEX_ENTRY_LENGTH);
            segment.endOffset = baseOffset;
            segment.sizeBytes = HEADER_LENGTH;
            segment.maxTimestamp = -1;
            segment.firstTimestamp = -1;
            segment.mapActive(config, 0, 0, HEADER_LENGTH);
            return segment;
        }
        catch (final IOException | UncheckedIOException ex)
        {
            // a full disk: nothing of the segment stays behind, so the same roll can be tried again
            segment.deleteFiles();
            throw ex instanceof UncheckedIOException unchecked ? unchecked :
                new UncheckedIOException("cannot create segment " + segment.logPath, (IOException)ex);
        }
    }

    /**
     * A recovered segment that becomes the active one: extended back to the configured size, mapped and held.
     */
    public static Segment openActive(final Path dir, final long baseOffset, final LogConfig config,
        final SegmentScanner.Result scanned, final IdleSegmentMappings idleMappings)
    {
        final Segment segment = new Segment(dir, baseOffset, idleMappings);
        segment.endOffset = scanned.nextOffset;
        segment.sizeBytes = scanned.validEnd;
        segment.maxTimestamp = scanned.maxTimestamp;
        segment.firstTimestamp = scanned.firstTimestamp;
        segment.mapActive(config, scanned.offsetIndexEntries(), scanned.timeIndexEntries(), scanned.validEnd);
        return segment;
    }

    /**
     * A recovered closed segment; not mapped until somebody acquires it.
     */
    public static Segment openClosed(final Path dir, final long baseOffset, final SegmentScanner.Result scanned,
        final IdleSegmentMappings idleMappings)
    {
        final Segment segment = new Segment(dir, baseOffset, idleMappings);
        segment.closed = true;
        segment.endOffset = scanned.nextOffset;
        segment.sizeBytes = scanned.validEnd;
        segment.maxTimestamp = scanned.maxTimestamp;
        segment.firstTimestamp = scanned.firstTimestamp;
        segment.hasDedupRecords = scanned.hasDedup;
        return segment;
    }

    private synchronized void mapActive(final LogConfig config, final int offsetEntries, final int timeEntries,
        final int cachedEnd)
    {
        try
        {
            final long existing = Files.size(logPath);
            activeCapacity = (int)Math.max(existing, config.segmentBytes());
            logMap = SegmentFiles.map(logPath, FileChannel.MapMode.READ_WRITE, activeCapacity);
            offsetIndexMap = SegmentFiles.mapAllocated(offsetIndexPath, Math.max(SegmentFiles.offsetIndexCapacity(config),
                INDEX_HEADER_LENGTH + offsetEntries * OFFSET_INDEX_ENTRY_LENGTH));
            timeIndexMap = SegmentFiles.mapAllocated(timeIndexPath, Math.max(SegmentFiles.timeIndexCapacity(config),
                INDEX_HEADER_LENGTH + timeEntries * TIME_INDEX_ENTRY_LENGTH));
            fill = new PageCacheFill(logPath, cachedEnd, activeCapacity);
        }
        catch (final IOException ex)
        {
            unmapAll();
            throw new UncheckedIOException("cannot map segment " + logPath, ex);
        }
        buffer = new UnsafeBuffer(logMap);
        offsetIndex = new OffsetIndex(new UnsafeBuffer(offsetIndexMap), offsetEntries);
        timeIndex = new TimeIndex(new UnsafeBuffer(timeIndexMap), timeEntries);
        refs = 1;
    }

    private void mapClosed()
    {
        try
        {
            logMap = SegmentFiles.map(logPath, FileChannel.MapMode.READ_ONLY, Files.size(logPath));
            offsetIndexMap = SegmentFiles.map(offsetIndexPath, FileChannel.MapMode.READ_ONLY,
                Files.size(offsetIndexPath));
            timeIndexMap = SegmentFiles.map(timeIndexPath, FileChannel.MapMode.READ_ONLY, Files.size(timeIndexPath));
        }
        catch (final IOException ex)
        {
            unmapAll();
            throw new UncheckedIOException("cannot map segment " + logPath, ex);
        }
        buffer = new UnsafeBuffer(logMap);
        offsetIndex = new OffsetIndex(new UnsafeBuffer(offsetIndexMap),
            (offsetIndexMap.capacity() - INDEX_HEADER_LENGTH) / OFFSET_INDEX_ENTRY_LENGTH);
        timeIndex = new TimeIndex(new UnsafeBuffer(timeIndexMap),
            (timeIndexMap.capacity() - INDEX_HEADER_LENGTH) / TIME_INDEX_ENTRY_LENGTH);
    }

    private void unmapAll()
    {
        stopFill();
        if (logMap != null)
        {
            IoUtil.unmap(logMap);
        }
        if (offsetIndexMap != null)
        {
            IoUtil.unmap(offsetIndexMap);
        }
        if (timeIndexMap != null)
        {
            IoUtil.unmap(timeIndexMap);
        }
        logMap = null;
        offsetIndexMap = null;
        timeIndexMap = null;
        buffer = null;
        offsetIndex = null;
        timeIndex = null;
    }

    /**
     * Takes a reference, mapping the files if nobody held them.
     *
     * @return false when the segment has been deleted.
     */
    public synchronized boolean acquire()
    {
        if (deleted)
        {
            return false;
        }
        if (refs == 0 && logMap == null)
        {
            mapClosed();
        }
        refs++;
        return true;
    }

    /**
     * Drops a reference. A closed segment nobody reads any more stays mapped among the store's idle mappings; an
     * active one (its log is closing) or a deleted one is unmapped at once.
     */
    public void release()
    {
        synchronized (this)
        {
            if (refs <= 0)
            {
                throw new IllegalStateException(
                    "segment " + logPath.getFileName() + " released more often than acquired");
            }
            if (--refs > 0)
            {
                return;
            }
            if (deleted || !closed)
            {
                unmapAll();
                if (deleted)
                {
                    deleteFiles();
                }
                return;
            }
        }
        idleMappings.released(this);
    }

    /** Called by {@link IdleSegmentMappings} when it stops keeping this segment mapped. */
    synchronized void unmapIfIdle()
    {
        if (refs == 0)
        {
            unmapAll();
        }
    }

    /** The log is closing: unmap this segment now unless a reader still holds it. */
    public void evictIdleMapping()
    {
        idleMappings.evict(this);
    }

    /**
     * Retention or log deletion: no new reference is granted; the files go when the last holder releases.
     */
    public void markDeleted()
    {
        synchronized (this)
        {
            deleted = true;
            if (refs == 0)
            {
                unmapAll();
                deleteFiles();
            }
        }
        idleMappings.evict(this);
    }

    private void deleteFiles()
    {
        if (filesDeleted)
        {
            return;
        }
        filesDeleted = true;
        try
        {
            Files.deleteIfExists(logPath);
            Files.deleteIfExists(offsetIndexPath);
            Files.deleteIfExists(timeIndexPath);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot delete segment " + logPath, ex);
        }
    }

    /**
     * Writer thread: the segment takes no more records. Trims the files to what was written so a closed segment
     * occupies its real size; the mapping stays valid for holders, who never read past {@code sizeBytes}.
     */
    public synchronized void close(final long endOffset, final int sizeBytes, final long firstTimestamp,
        final long maxTimestamp, final boolean hasDedupRecords)
    {
        this.hasDedupRecords = hasDedupRecords;
        stopFill();
        SegmentFiles.trim(logPath, sizeBytes);
        SegmentFiles.trim(offsetIndexPath, INDEX_HEADER_LENGTH + offsetIndex.entries() * OFFSET_INDEX_ENTRY_LENGTH);
        SegmentFiles.trim(timeIndexPath, INDEX_HEADER_LENGTH + timeIndex.entries() * TIME_INDEX_ENTRY_LENGTH);
        this.endOffset = endOffset;
        this.sizeBytes = sizeBytes;
        this.firstTimestamp = firstTimestamp;
        this.maxTimestamp = maxTimestamp;
        this.closed = true;
    }

    /**
     * Prefaulter thread, holding a reference: fills (see {@link PageCacheFill}) and faults in the pages of [from, to)
     * of the active record file, a chunk at a time under this segment's monitor, so that {@link #close} (which trims
     * the file) never runs while a page past the trimmed end is filled or touched. See {@link SegmentPrefaulter} for
     * why a compare-and-set of 0 to 0 cannot change what the writer stored.
     *
     * @return the position touched up to: {@code to}, or less when the segment closed or ends first.
     */
    public int prefault(final int from, final int to, final int chunkBytes)
    {
        int position = from & -SegmentPrefaulter.PAGE_BYTES;
        while (position < to)
        {
            synchronized (this)
            {
                if (closed || buffer == null)
                {
                    return position;
                }
                final int chunkEnd = Math.min(Math.min(to, position + chunkBytes), activeCapacity);
                if (position >= chunkEnd)
                {
                    return position;
                }
                // only filled pages are touched: a hole on a full disk answers a store with a SIGBUS
                final int filled = Math.min(chunkEnd, fill.fillTo(chunkEnd));
                for (; position < filled; position += SegmentPrefaulter.PAGE_BYTES)
                {
                    buffer.compareAndSetInt(position, 0, 0);
                }
                if (filled < chunkEnd)
                {
                    return position;
                }
            }
        }
        return position;
    }

    /**
     * Writer thread: below this position of the active record file the pages are in the page cache, and nothing
     * else will write there; the writer stores only below it (see {@link PageCacheFill}).
     */
    public int cachedEnd()
    {
        final PageCacheFill current = fill;
        return current == null ? activeCapacity : current.end();
    }

    /**
     * Writer thread, when it has caught up with the fill: brings the pages up to {@code target} into the page cache
     * itself.
     *
     * @return the new {@link #cachedEnd()}, at least {@code target} unless that is past the capacity.
     */
    public synchronized int fillTo(final int target)
    {
        return fill == null ? activeCapacity : fill.fillTo(target);
    }

    /**
     * Why the last fill of the active record file stopped short (a full disk), or null: see {@link PageCacheFill}.
     */
    public synchronized IOException fillFailure()
    {
        return fill == null ? null : fill.failure();
    }

    private void stopFill()
    {
        if (fill != null)
        {
            fill.stop();
            fill = null;
        }
    }

    /** Whether the pages of [from, to) of the record file are in memory; for diagnostics, holding a reference. */
    public synchronized boolean isResident(final int from, final int to)
    {
        return logMap != null && logMap.slice(from, to - from).isLoaded();
    }

    /**
     * Forces written bytes [from, to) of the record file to disk. The caller holds a reference.
     */
    public void force(final FileSync sync, final int from, final int to)
    {
        if (to > from)
        {
            sync.force(logPath, logMap, from, to - from);
        }
    }

    public long baseOffset()
    {
        return baseOffset;
    }

    public boolean isClosed()
    {
        return closed;
    }

    /** The offset after this segment's last record; meaningful once closed (the appender tracks the active one). */
    public long endOffset()
    {
        return endOffset;
    }

    public int sizeBytes()
    {
        return sizeBytes;
    }

    public int activeCapacity()
    {
        return activeCapacity;
    }

    public long maxTimestamp()
    {
        return maxTimestamp;
    }

    /** Whether a record of this closed segment carries a dedup id (the log rebuilds its dedup window from it). */
    public boolean hasDedupRecords()
    {
        return hasDedupRecords;
    }

    long firstTimestamp()
    {
        return firstTimestamp;
    }

    /** Valid while a reference is held. */
    public UnsafeBuffer buffer()
    {
        return buffer;
    }

    /** Valid while a reference is held. */
    public OffsetIndex offsetIndex()
    {
        return offsetIndex;
    }

    /** Valid while a reference is held. */
    public TimeIndex timeIndex()
    {
        return timeIndex;
    }

    Path logPath()
    {
        return logPath;
    }

    synchronized boolean isMapped()
    {
        return logMap != null;
    }

    @Override
    public String toString()
    {
        return "Segment{" + logPath.getFileName() + ", end=" + endOffset + ", size=" + sizeBytes +
            (closed ? ", closed" : ", active") + '}';
    }
}
