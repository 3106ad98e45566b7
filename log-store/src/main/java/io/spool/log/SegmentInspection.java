package io.spool.log;

import org.agrona.IoUtil;
import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.spool.log.SegmentDescriptor.*;

/**
 * A read-only check of one segment file and its two indexes, for tools that must report damage without repairing
 * it. The frames are walked with the checks recovery uses ({@link SegmentScanner}); each index entry is compared
 * with the record it points at, whatever spacing the log was configured with. Nothing is ever written, truncated or
 * deleted, so it is safe on a log a running store has open.
 * <p>
 * Immutable and thread-safe.
 */
public final class SegmentInspection
{
    /** What an index file looks like next to its segment. Immutable, thread-safe. */
    public enum IndexHealth
    {
        /** Every entry points at the record it names; recovery would keep it. */
        OK,
        /** The file is not there; recovery would rebuild it. */
        MISSING,
        /** A bad header, an entry pointing elsewhere, or stray bytes; recovery would rebuild it. */
        DISAGREES
    }

    private final Path file;
    private final long baseOffset;
    private final long fileBytes;
    private final int validBytes;
    private final long firstTimestamp;
    private final long maxTimestamp;
    /** Frame position of each valid record, by offset relative to the base. */
    private final int[] positions;
    private final String problem;
    private final long problemOffset;
    private final long problemPosition;
    private final IndexHealth offsetIndexHealth;
    private final String offsetIndexDetail;
    private final IndexHealth timeIndexHealth;
    private final String timeIndexDetail;

    private SegmentInspection(final Path file, final long baseOffset, final long fileBytes, final Scan scan,
        final IndexCheck offsetIndex, final IndexCheck timeIndex)
    {
        this.file = file;
        this.baseOffset = baseOffset;
        this.fileBytes = fileBytes;
        this.validBytes = scan.validBytes;
        this.firstTimestamp = scan.firstTimestamp;
        this.maxTimestamp = scan.maxTimestamp;
        this.positions = scan.positions;
        this.problem = scan.problem;
        this.problemOffset = scan.problemOffset;
        this.problemPosition = scan.problemPosition;
        this.offsetIndexHealth = offsetIndex.health;
        this.offsetIndexDetail = offsetIndex.detail;
        this.timeIndexHealth = timeIndex.health;
        this.timeIndexDetail = timeIndex.detail;
    }

    /**
     * The segment files of a log directory in offset order.
     */
    public static List<Path> segmentFiles(final Path logDir)
    {
        final List<Path> files = new ArrayList<>();
        for (final long base : LogRecovery.segmentBases(logDir))
        {
            files.add(logDir.resolve(fileName(base, LOG_SUFFIX)));
        }
        return files;
    }

    /**
     * Inspects a segment file (named by its 20-digit base offset) and the indexes beside it.
     *
     * @throws IllegalArgumentException when the name is not a segment file's.
     * @throws UncheckedIOException when the file cannot be read.
     */
    public static SegmentInspection inspect(final Path segmentFile)
    {
        final long baseOffset = baseOffsetOf(segmentFile.getFileName().toString());
        if (baseOffset < 0)
        {
            throw new IllegalArgumentException("not a segment file name (a 20-digit base offset and " + LOG_SUFFIX +
                "): " + segmentFile.getFileName());
        }
        try
        {
            final long fileBytes = Files.size(segmentFile);
            final Scan scan = scan(segmentFile, baseOffset, fileBytes);
            final Path dir = segmentFile.toAbsolutePath().getParent();
            return new SegmentInspection(segmentFile, baseOffset, fileBytes, scan,
                checkOffsetIndex(dir.resolve(fileName(baseOffset, OFFSET_INDEX_SUFFIX)), scan),
                checkTimeIndex(dir.resolve(fileName(baseOffset, TIME_INDEX_SUFFIX)), scan));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot inspect segment " + segmentFile, ex);
        }
    }

    public Path file()
    {
        return file;
    }

    public long baseOffset()
    {
        return baseOffset;
    }

    /** The offset after the last valid record: the first one recovery would not keep. */
    public long endOffset()
    {
        return baseOffset + positions.length;
    }

    /** Valid records from the base offset up to the first problem. */
    public int records()
    {
        return positions.length;
    }

    /** Size of the file, pre-allocated space included. */
    public long fileBytes()
    {
        return fileBytes;
    }

    /** Bytes of header and valid frames, padding included: where recovery would cut. */
    public int validBytes()
    {
        return validBytes;
    }

    /** Timestamp of the first valid record, or -1 when there is none. */
    public long firstTimestamp()
    {
        return firstTimestamp;
    }

    /** Largest timestamp of the valid records, or -1 when there is none. */
    public long maxTimestamp()
    {
        return maxTimestamp;
    }

    /** The first framing, CRC, offset or header error, or a torn write after the last record; null when clean. */
    public String problem()
    {
        return problem;
    }

    /** Offset the first problem stands at, or -1 when clean. */
    public long problemOffset()
    {
        return problemOffset;
    }

    /** File position of the first problem, or -1 when clean. */
    public long problemPosition()
    {
        return problemPosition;
    }

    public IndexHealth offsetIndexHealth()
    {
        return offsetIndexHealth;
    }

    /** Why the offset index is not {@link IndexHealth#OK}; null when it is. */
    public String offsetIndexDetail()
    {
        return offsetIndexDetail;
    }

    public IndexHealth timeIndexHealth()
    {
        return timeIndexHealth;
    }

    /** Why the time index is not {@link IndexHealth#OK}; null when it is. */
    public String timeIndexDetail()
    {
        return timeIndexDetail;
    }

    /**
     * Maps the file read-only again and hands up to {@code maxRecords} valid records from {@code fromOffset} on to
     * {@code handler}; the views are valid only during each call.
     *
     * @return how many records were handed over.
     */
    public int readRecords(final long fromOffset, final int maxRecords, final RecordHandler handler)
    {
        final int first = (int)Math.max(0, Math.min(positions.length, fromOffset - baseOffset));
        final int last = (int)Math.min(positions.length, (long)first + Math.max(0, maxRecords));
        if (first >= last)
        {
            return 0;
        }
        try
        {
            // Never map past the end of the file: touching such a page kills the process.
            final long mappedBytes = Math.min(Files.size(file), validBytes);
            final MappedByteBuffer mapped = Segment.map(file, FileChannel.MapMode.READ_ONLY, mappedBytes);
            try
            {
                final UnsafeBuffer buffer = new UnsafeBuffer(mapped);
                final RecordView view = new RecordView();
                int count = 0;
                for (int i = first; i < last && positions[i] + RecordDescriptor.HEADER_LENGTH <= mappedBytes; i++)
                {
                    view.wrap(buffer, positions[i]);
                    if (positions[i] + (long)view.frameLength() > mappedBytes)
                    {
                        break;
                    }
                    handler.onRecord(view);
                    count++;
                }
                return count;
            }
            finally
            {
                IoUtil.unmap(mapped);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read segment " + file, ex);
        }
    }

    @Override
    public String toString()
    {
        return "SegmentInspection{" + file.getFileName() + ", offsets " + baseOffset + ".." + endOffset() +
            ", problem=" + problem + ", offsetIndex=" + offsetIndexHealth + ", timeIndex=" + timeIndexHealth + '}';
    }

    /** What walking the frames found, with each valid record's position and running maximum timestamp. */
    private static final class Scan
    {
        int validBytes;
        long firstTimestamp = -1;
        long maxTimestamp = -1;
        int[] positions = new int[0];
        long[] runningMaxTimestamps = new long[0];
        String problem;
        long problemOffset = -1;
        long problemPosition = -1;

        void fail(final String problem, final long offset, final long position)
        {
            this.problem = problem;
            this.problemOffset = offset;
            this.problemPosition = position;
        }
    }

    private static Scan scan(final Path segmentFile, final long baseOffset, final long fileBytes) throws IOException
    {
        final Scan scan = new Scan();
        if (fileBytes < HEADER_LENGTH || fileBytes > Integer.MAX_VALUE)
        {
            scan.fail("file of " + fileBytes + " bytes cannot be a segment", baseOffset, 0);
            return scan;
        }
        final MappedByteBuffer mapped = Segment.map(segmentFile, FileChannel.MapMode.READ_ONLY, fileBytes);
        try
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(mapped);
            final String headerProblem = SegmentScanner.checkHeader(buffer, fileBytes, baseOffset);
            if (headerProblem != null)
            {
                scan.fail(headerProblem, baseOffset, 0);
                return scan;
            }
            // An index entry for every record gives every record's position.
            final SegmentScanner.Result result = new SegmentScanner().scan(buffer, mapped.duplicate(), (int)fileBytes,
                baseOffset, 1);
            scan.validBytes = result.validEnd;
            scan.firstTimestamp = result.firstTimestamp;
            scan.maxTimestamp = result.maxTimestamp;
            scan.positions = new int[result.records];
            scan.runningMaxTimestamps = new long[result.records];
            // Starts where the writer's does, so the time index entries it wrote compare equal.
            long runningMax = -1;
            for (int i = 0; i < result.records; i++)
            {
                scan.positions[i] = result.offsetIndex.getInt(2 * i + 1);
                runningMax = Math.max(runningMax,
                    buffer.getLong(scan.positions[i] + RecordDescriptor.TIMESTAMP_OFFSET));
                scan.runningMaxTimestamps[i] = runningMax;
            }
            if (result.problem != null)
            {
                scan.fail(result.problem, result.problemOffset, result.validEnd);
            }
            else
            {
                final long torn = nonZeroBytesAfter(buffer, result.validEnd, (int)fileBytes);
                if (torn > 0)
                {
                    scan.fail("torn write after the last record: non-zero bytes up to position " +
                        (result.validEnd + torn), result.nextOffset, result.validEnd);
                }
            }
            return scan;
        }
        finally
        {
            IoUtil.unmap(mapped);
        }
    }

    /** Bytes from {@code from} up to and including the last non-zero byte before {@code limit}; 0 when all zero. */
    private static long nonZeroBytesAfter(final UnsafeBuffer buffer, final int from, final int limit)
    {
        for (int i = limit - 1; i >= from; i--)
        {
            if (buffer.getByte(i) != 0)
            {
                return i - from + 1L;
            }
        }
        return 0;
    }

    private record IndexCheck(IndexHealth health, String detail)
    {
        static final IndexCheck OK = new IndexCheck(IndexHealth.OK, null);

        static IndexCheck disagrees(final Path path, final String why)
        {
            return new IndexCheck(IndexHealth.DISAGREES, path.getFileName() + ": " + why);
        }
    }

    private static IndexCheck checkOffsetIndex(final Path path, final Scan scan) throws IOException
    {
        final UnsafeBuffer index = readIndex(path);
        if (index == null)
        {
            return new IndexCheck(IndexHealth.MISSING, path.getFileName() + " is missing");
        }
        final String header = checkIndexHeader(index, OFFSET_INDEX_MAGIC, OFFSET_INDEX_ENTRY_LENGTH);
        if (header != null)
        {
            return IndexCheck.disagrees(path, header);
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
                    return IndexCheck.disagrees(path, "non-zero bytes after the last entry at position " + at);
                }
                break;
            }
            final String entry = "entry at position " + at + " (relative offset " + relativeOffset + ", position " +
                position + ")";
            if (relativeOffset <= previous)
            {
                return IndexCheck.disagrees(path, entry + " is not above the entry before it");
            }
            if (relativeOffset < 0 || relativeOffset >= scan.positions.length)
            {
                return IndexCheck.disagrees(path, entry + " names no valid record");
            }
            if (scan.positions[relativeOffset] != position)
            {
                return IndexCheck.disagrees(path, entry + " but that record is at position " +
                    scan.positions[relativeOffset]);
            }
            indexed.addInt(relativeOffset);
            previous = relativeOffset;
        }
        return checkSpacing(path, indexed, scan.positions);
    }

    /**
     * The writer indexes a segment's first record, then each first record that lies at least one interval of bytes
     * after the last indexed one. Whatever the interval was, one value must explain every gap between entries and the
     * records after the last entry; when none can, entries are missing (an index cut short, say).
     */
    private static IndexCheck checkSpacing(final Path path, final IntArrayList indexed, final int[] positions)
    {
        if (positions.length == 0)
        {
            return IndexCheck.OK;
        }
        if (indexed.isEmpty() || indexed.getInt(0) != 0)
        {
            return IndexCheck.disagrees(path, "the first of the segment's " + positions.length +
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
            return IndexCheck.disagrees(path, "entries are missing: " + longestUnindexed +
                " bytes of records after relative offset " + longestUnindexedFrom + " have no entry, but entries " +
                shortestGap + " bytes apart exist");
        }
        return IndexCheck.OK;
    }

    private static IndexCheck checkTimeIndex(final Path path, final Scan scan) throws IOException
    {
        final UnsafeBuffer index = readIndex(path);
        if (index == null)
        {
            return new IndexCheck(IndexHealth.MISSING, path.getFileName() + " is missing");
        }
        final String header = checkIndexHeader(index, TIME_INDEX_MAGIC, TIME_INDEX_ENTRY_LENGTH);
        if (header != null)
        {
            return IndexCheck.disagrees(path, header);
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
                    return IndexCheck.disagrees(path, "non-zero bytes after the last entry at position " + at);
                }
                break;
            }
            final String entry = "entry at position " + at + " (timestamp " + timestamp + ", relative offset " +
                relativeOffset + ")";
            if (relativeOffset <= previous)
            {
                return IndexCheck.disagrees(path, entry + " is not above the entry before it");
            }
            if (relativeOffset < 0 || relativeOffset >= scan.positions.length)
            {
                return IndexCheck.disagrees(path, entry + " names no valid record");
            }
            if (scan.runningMaxTimestamps[relativeOffset] != timestamp || unused != 0)
            {
                return IndexCheck.disagrees(path, entry + " but the largest timestamp up to that record is " +
                    scan.runningMaxTimestamps[relativeOffset]);
            }
            first = previous < 0 ? relativeOffset : first;
            previous = relativeOffset;
        }
        if (scan.positions.length > 0 && first != 0)
        {
            // The first record always sets a new largest timestamp, so the writer always indexes it.
            return IndexCheck.disagrees(path, "the first of the segment's " + scan.positions.length +
                " records has no entry");
        }
        return IndexCheck.OK;
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
