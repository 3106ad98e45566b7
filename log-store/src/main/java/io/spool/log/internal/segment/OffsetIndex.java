package io.spool.log.internal.segment;

import org.agrona.concurrent.UnsafeBuffer;

import static io.spool.log.internal.segment.SegmentDescriptor.INDEX_HEADER_LENGTH;
import static io.spool.log.internal.segment.SegmentDescriptor.OFFSET_INDEX_ENTRY_LENGTH;

/**
 * The sparse offset index of one segment: every so many bytes, the position of a record by its offset relative to
 * the segment base. Written by the log's writer thread only; read by any thread up to the published entry count.
 */
public final class OffsetIndex
{
    private final UnsafeBuffer buffer;
    private final int maxEntries;
    private volatile int entries;

    OffsetIndex(final UnsafeBuffer buffer, final int entries)
    {
        this.buffer = buffer;
        this.maxEntries = (buffer.capacity() - INDEX_HEADER_LENGTH) / OFFSET_INDEX_ENTRY_LENGTH;
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

    public void append(final int relativeOffset, final int position)
    {
        final int n = entries;
        final int at = INDEX_HEADER_LENGTH + n * OFFSET_INDEX_ENTRY_LENGTH;
        buffer.putInt(at, relativeOffset);
        buffer.putInt(at + Integer.BYTES, position);
        entries = n + 1;
    }

    int relativeOffsetAt(final int entry)
    {
        return buffer.getInt(INDEX_HEADER_LENGTH + entry * OFFSET_INDEX_ENTRY_LENGTH);
    }

    public int positionAt(final int entry)
    {
        return buffer.getInt(INDEX_HEADER_LENGTH + entry * OFFSET_INDEX_ENTRY_LENGTH + Integer.BYTES);
    }

    /**
     * The entry with the greatest relative offset not above {@code relativeOffset}, or -1 when every entry is above.
     */
    public int floorEntry(final long relativeOffset)
    {
        int low = 0;
        int high = entries - 1;
        int found = -1;
        while (low <= high)
        {
            final int mid = (low + high) >>> 1;
            if (relativeOffsetAt(mid) <= relativeOffset)
            {
                found = mid;
                low = mid + 1;
            }
            else
            {
                high = mid - 1;
            }
        }
        return found;
    }
}
