package io.spool.log.internal.segment;

import org.agrona.collections.ArrayUtil;

import java.util.Arrays;
import java.util.List;

/**
 * The segments one partition log holds, oldest first, the last one active: a copy-on-write array that readers take
 * a snapshot of with one volatile load, while the append thread adds at the tail (a roll) and retention drops at the
 * head. Changes are serialised by the structure lock; head changes are also serialised with each other by
 * {@link LogRetention}, so a head counted under its lock is still the head when it is dropped.
 * <p>
 * Thread-safe.
 */
public final class LogSegments
{
    private static final Segment[] NO_SEGMENTS = new Segment[0];

    private final Object structureLock = new Object();
    private volatile Segment[] segments;
    private volatile long startOffset;

    /** @param recovered the segments recovery left, oldest first; at least the active one. */
    public LogSegments(final List<Segment> recovered)
    {
        this.segments = recovered.toArray(NO_SEGMENTS);
        this.startOffset = segments[0].baseOffset();
    }

    /** The earliest offset still held. */
    public long startOffset()
    {
        return startOffset;
    }

    /** One consistent snapshot of the list; never changed in place. */
    public Segment[] snapshot()
    {
        return segments;
    }

    public int count()
    {
        return segments.length;
    }

    /** Bytes the closed segments hold, plus {@code activeWritePosition} for the active one. */
    public long sizeInBytes(final int activeWritePosition)
    {
        return sizeInBytes(segments, activeWritePosition);
    }

    private static long sizeInBytes(final Segment[] current, final int activeWritePosition)
    {
        long total = 0;
        for (int i = 0; i < current.length - 1; i++)
        {
            total += current[i].sizeBytes();
        }
        return total + activeWritePosition;
    }

    /**
     * The segment holding {@code offset}, or when it lies in a hole the first segment after the hole; null if below
     * the start. From one snapshot of the segment list.
     */
    public Segment holding(final long offset)
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

    /** The segment appends go to; read off the writer thread it may already have been rolled past. */
    public Segment active()
    {
        final Segment[] current = segments;
        return current.length == 0 ? null : current[current.length - 1];
    }

    /** Append thread, at a roll: the new active segment, already attached to the writer. */
    public void add(final Segment segment)
    {
        synchronized (structureLock)
        {
            segments = ArrayUtil.add(segments, segment);
        }
    }

    /**
     * How many of the oldest closed segments are past the retention age or keep the log above the retention size,
     * counted without a roll landing meanwhile. Zero limits mean no limit; the active segment always stays.
     */
    public int countPastRetention(final long nowMillis, final long retentionMillis, final long retentionBytes,
        final int activeWritePosition)
    {
        synchronized (structureLock)
        {
            final Segment[] current = segments;
            long size = sizeInBytes(current, activeWritePosition);
            int drop = 0;
            while (drop < current.length - 1)
            {
                final Segment oldest = current[drop];
                final boolean tooOld = retentionMillis > 0 && nowMillis - oldest.maxTimestamp() > retentionMillis;
                final boolean tooBig = retentionBytes > 0 && size - oldest.sizeBytes() >= retentionBytes;
                if (!tooOld && !tooBig)
                {
                    break;
                }
                size -= oldest.sizeBytes();
                drop++;
            }
            return drop;
        }
    }

    /**
     * How many of the oldest closed segments hold only records below {@code offset}, stopping at the first that
     * holds a dedup id stamped after {@code dedupHorizon}.
     */
    public int countBelow(final long offset, final long dedupHorizon)
    {
        synchronized (structureLock)
        {
            final Segment[] current = segments;
            int drop = 0;
            while (drop < current.length - 1 && current[drop].endOffset() <= offset &&
                !(current[drop].hasDedupRecords() && current[drop].maxTimestamp() > dedupHorizon))
            {
                drop++;
            }
            return drop;
        }
    }

    /** The base offset of the segment that becomes the oldest once {@code drop} are gone. */
    public long baseOffsetAfter(final int drop)
    {
        return segments[drop].baseOffset();
    }

    /** Takes the {@code drop} oldest segments out; their files go as their last readers leave. */
    public void dropHead(final int drop)
    {
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
    }

    /** Marks every segment deleted and empties the list: the log is being deleted. */
    public void deleteAll()
    {
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
