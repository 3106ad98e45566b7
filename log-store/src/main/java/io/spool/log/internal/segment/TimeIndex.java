package io.spool.log.internal.segment;

import org.agrona.concurrent.UnsafeBuffer;

import static io.spool.log.internal.segment.SegmentDescriptor.INDEX_HEADER_LENGTH;
import static io.spool.log.internal.segment.SegmentDescriptor.TIME_INDEX_ENTRY_LENGTH;

/**
 * The sparse time index of one segment: the largest timestamp seen so far and the relative offset of the record that
 * set it. Written by the log's writer thread only; read by any thread up to the published entry count.
 */
public final class TimeIndex
{
    private final UnsafeBuffer buffer;
    private final int maxEntries;
    private volatile int entries;

    TimeIndex(final UnsafeBuffer buffer, final int entries)
    {
        this.buffer = buffer;
        this.maxEntries = (buffer.capacity() - INDEX_HEADER_LENGTH) / TIME_INDEX_ENTRY_LENGTH;
        this.entries = entries;
    }

    int entries()
    {
        return entries;
    }

    public boolean isFull()
    {
        return entries >= maxEntries;
    }

    public void append(final long timestamp, final int relativeOffset)
    {
        final int n = entries;
        final int at = INDEX_HEADER_LENGTH + n * TIME_INDEX_ENTRY_LENGTH;
        buffer.putLong(at, timestamp);
        buffer.putInt(at + Long.BYTES, relativeOffset);
        buffer.putInt(at + Long.BYTES + Integer.BYTES, 0);
        entries = n + 1;
    }

    long timestampAt(final int entry)
    {
        return buffer.getLong(INDEX_HEADER_LENGTH + entry * TIME_INDEX_ENTRY_LENGTH);
    }

    int relativeOffsetAt(final int entry)
    {
        return buffer.getInt(INDEX_HEADER_LENGTH + entry * TIME_INDEX_ENTRY_LENGTH + Long.BYTES);
    }

    /**
     * The relative offset from which to scan for the first record with a timestamp at or above {@code timestamp}:
     * that of the last entry whose largest-so-far timestamp is still below it, or 0.
     */
    public int scanStartFor(final long timestamp)
    {
        int low = 0;
        int high = entries - 1;
        int found = -1;
        while (low <= high)
        {
            final int mid = (low + high) >>> 1;
            if (timestampAt(mid) < timestamp)
            {
                found = mid;
                low = mid + 1;
            }
            else
            {
                high = mid - 1;
            }
        }
        return found < 0 ? 0 : relativeOffsetAt(found);
    }
}
