package io.spool.log.internal.recovery;

import io.spool.log.internal.recovery.SegmentInspection.IndexHealth;
import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import static io.spool.log.internal.segment.SegmentDescriptor.*;

/**
 * The verdict on one index file beside a segment, for {@link SegmentInspection}: each entry is compared with the
 * record it names, whatever spacing the log was configured with. Reads the file; never writes it. Immutable.
 *
 * @param health what the index looks like.
 * @param detail why it disagrees or is missing, naming the file; null when it is fine.
 */
record SegmentIndexCheck(IndexHealth health, String detail)
{
    private static final SegmentIndexCheck OK = new SegmentIndexCheck(IndexHealth.OK, null);

    private static SegmentIndexCheck disagrees(final Path path, final String why)
    {
        return new SegmentIndexCheck(IndexHealth.DISAGREES, path.getFileName() + ": " + why);
    }

    /** Compares the offset index at {@code path} with the valid records' frame positions, by relative offset. */
    static SegmentIndexCheck offsetIndex(final Path path, final int[] positions) throws IOException
    {
        final UnsafeBuffer index = readIndex(path);
        if (index == null)
        {
            return new SegmentIndexCheck(IndexHealth.MISSING, path.getFileName() + " is missing");
        }
        final String header = checkIndexHeader(index, OFFSET_INDEX_MAGIC, OFFSET_INDEX_ENTRY_LENGTH);
        if (header != null)
        {
            return disagrees(path, header);
        }
        final IntArrayList indexed = new IntArrayList();
        int previous = -1;
        for (int at = INDEX_HEADER_LENGTH; at < index.capacity(); at += OFFSET_INDEX_ENTRY_LENGTH)
        {
            final int relativeOffset = index.getInt(at);
            final int position = index.getInt(at + Integer.BYTES);
            if (relativeOffset == 0 && position == 0)
            {
                if (!zeroesFrom(index, at))
                {
                    return disagrees(path, "non-zero bytes after the last entry at position " + at);
                }
                break;
            }
            final String entry = "entry at position " + at + " (relative offset " + relativeOffset + ", position " +
                position + ")";
            if (relativeOffset <= previous)
            {
                return disagrees(path, entry + " is not above the entry before it");
            }
            if (relativeOffset < 0 || relativeOffset >= positions.length)
            {
                return disagrees(path, entry + " names no valid record");
            }
            if (positions[relativeOffset] != position)
            {
                return disagrees(path, entry + " but that record is at position " +
                    positions[relativeOffset]);
            }
            indexed.addInt(relativeOffset);
            previous = relativeOffset;
        }
        return checkSpacing(path, indexed, positions);
    }

    /**
     * The writer indexes a segment's first record, then each first record that lies at least one interval of bytes
     * after the last indexed one. Whatever the interval was, one value must explain every gap between entries and the
     * records after the last entry; when none can, entries are missing (an index cut short, say).
     */
    private static SegmentIndexCheck checkSpacing(final Path path, final IntArrayList indexed, final int[] positions)
    {
        if (positions.length == 0)
        {
            return OK;
        }
        if (indexed.isEmpty() || indexed.getInt(0) != 0)
        {
            return disagrees(path, "the first of the segment's " + positions.length +
                " records has no entry");
        }
        long longestUnindexed = -1;
        int longestUnindexedFrom = 0;
        long shortestGap = Long.MAX_VALUE;
        for (int k = 0; k < indexed.size(); k++)
        {
            final int from = indexed.getInt(k);
            final int next = k + 1 < indexed.size() ? indexed.getInt(k + 1) : positions.length;
            // The records from this entry up to the one before the next entry stayed below the interval.
            final long unindexed = positions[next - 1] - positions[from];
            if (unindexed > longestUnindexed)
            {
                longestUnindexed = unindexed;
                longestUnindexedFrom = from;
            }
            if (k + 1 < indexed.size())
            {
                shortestGap = Math.min(shortestGap, positions[next] - positions[from]);
            }
        }
        if (longestUnindexed >= shortestGap)
        {
            return disagrees(path, "entries are missing: " + longestUnindexed +
                " bytes of records after relative offset " + longestUnindexedFrom + " have no entry, but entries " +
                shortestGap + " bytes apart exist");
        }
        return OK;
    }

    /** Compares the time index at {@code path} with the running largest timestamp of the valid records. */
    static SegmentIndexCheck timeIndex(final Path path, final int[] positions,
        final long[] runningMaxTimestamps) throws IOException
    {
        final UnsafeBuffer index = readIndex(path);
        if (index == null)
        {
            return new SegmentIndexCheck(IndexHealth.MISSING, path.getFileName() + " is missing");
        }
        final String header = checkIndexHeader(index, TIME_INDEX_MAGIC, TIME_INDEX_ENTRY_LENGTH);
        if (header != null)
        {
            return disagrees(path, header);
        }
        int first = -1;
        int previous = -1;
        for (int at = INDEX_HEADER_LENGTH; at < index.capacity(); at += TIME_INDEX_ENTRY_LENGTH)
        {
            final long timestamp = index.getLong(at);
            final int relativeOffset = index.getInt(at + Long.BYTES);
            final int unused = index.getInt(at + Long.BYTES + Integer.BYTES);
            if (timestamp == 0 && relativeOffset == 0 && unused == 0)
            {
                if (!zeroesFrom(index, at))
                {
                    return disagrees(path, "non-zero bytes after the last entry at position " + at);
                }
                break;
            }
            final String entry = "entry at position " + at + " (timestamp " + timestamp + ", relative offset " +
                relativeOffset + ")";
            if (relativeOffset <= previous)
            {
                return disagrees(path, entry + " is not above the entry before it");
            }
            if (relativeOffset < 0 || relativeOffset >= positions.length)
            {
                return disagrees(path, entry + " names no valid record");
            }
            if (runningMaxTimestamps[relativeOffset] != timestamp || unused != 0)
            {
                return disagrees(path, entry + " but the largest timestamp up to that record is " +
                    runningMaxTimestamps[relativeOffset]);
            }
            first = previous < 0 ? relativeOffset : first;
            previous = relativeOffset;
        }
        if (positions.length > 0 && first != 0)
        {
            // The first record always sets a new largest timestamp, so the writer always indexes it.
            return disagrees(path, "the first of the segment's " + positions.length +
                " records has no entry");
        }
        return OK;
    }

    /** The index file's bytes, or null when it does not exist. Index files are small: read, not mapped. */
    private static UnsafeBuffer readIndex(final Path path) throws IOException
    {
        try
        {
            return new UnsafeBuffer(Files.readAllBytes(path));
        }
        catch (final NoSuchFileException ex)
        {
            return null;
        }
    }

    private static String checkIndexHeader(final UnsafeBuffer index, final long magic, final int entryLength)
    {
        if (index.capacity() < INDEX_HEADER_LENGTH)
        {
            return "file of " + index.capacity() + " bytes is shorter than the index header";
        }
        if (index.getLong(0) != magic)
        {
            return "bad magic in the index header";
        }
        if (index.getInt(VERSION_OFFSET) != FILE_VERSION)
        {
            return "unknown index file version " + index.getInt(VERSION_OFFSET);
        }
        if (index.getInt(INDEX_ENTRY_LENGTH_OFFSET) != entryLength)
        {
            return "entry length " + index.getInt(INDEX_ENTRY_LENGTH_OFFSET) + " where " + entryLength + " belongs";
        }
        if ((index.capacity() - INDEX_HEADER_LENGTH) % entryLength != 0)
        {
            return "file of " + index.capacity() + " bytes ends inside an entry";
        }
        return null;
    }

    private static boolean zeroesFrom(final UnsafeBuffer index, final int from)
    {
        for (int i = from; i < index.capacity(); i++)
        {
            if (index.getByte(i) != 0)
            {
                return false;
            }
        }
        return true;
    }
}
