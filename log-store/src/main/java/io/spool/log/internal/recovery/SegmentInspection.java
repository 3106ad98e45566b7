package io.spool.log.internal.recovery;

import io.spool.api.log.RecordDescriptor;
import io.spool.api.log.RecordView;
import io.spool.log.RecordHandler;
import io.spool.log.internal.segment.LogStart;
import io.spool.log.internal.segment.SegmentFiles;
import io.spool.log.internal.segment.SegmentScanner;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static io.spool.log.internal.segment.SegmentDescriptor.*;

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
        final SegmentIndexCheck offsetIndex, final SegmentIndexCheck timeIndex)
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
        this.offsetIndexHealth = offsetIndex.health();
        this.offsetIndexDetail = offsetIndex.detail();
        this.timeIndexHealth = timeIndex.health();
        this.timeIndexDetail = timeIndex.detail();
    }

    /**
     * The segment files of a log directory in offset order, without the ones retention has already taken out of it.
     */
    public static List<Path> segmentFiles(final Path logDir)
    {
        final List<Path> files = new ArrayList<>();
        final long[] bases = LogRecovery.segmentBases(logDir);
        // Retention's leftovers are no longer part of the log; the next open deletes them.
        for (int i = LogStart.leftovers(bases, LogStart.read(logDir)); i < bases.length; i++)
        {
            files.add(logDir.resolve(fileName(bases[i], LOG_SUFFIX)));
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
                SegmentIndexCheck.offsetIndex(dir.resolve(fileName(baseOffset, OFFSET_INDEX_SUFFIX)), scan.positions),
                SegmentIndexCheck.timeIndex(dir.resolve(fileName(baseOffset, TIME_INDEX_SUFFIX)), scan.positions,
                    scan.runningMaxTimestamps));
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
            final MappedByteBuffer mapped = SegmentFiles.map(file, FileChannel.MapMode.READ_ONLY, mappedBytes);
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
        final MappedByteBuffer mapped = SegmentFiles.map(segmentFile, FileChannel.MapMode.READ_ONLY, fileBytes);
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
}
