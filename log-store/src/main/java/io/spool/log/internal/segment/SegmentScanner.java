package io.spool.log.internal.segment;

import org.agrona.collections.IntArrayList;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import static io.spool.api.log.RecordDescriptor.*;

/**
 * Walks the frames of one segment from its header, checking each frame's length, version, offset and CRC32C, and
 * derives the sparse indexes the segment should have. Recovery truncates where it stops; the inspector reports it.
 * Not thread-safe.
 */
public final class SegmentScanner
{
    private final CRC32C crc = new CRC32C();

    /**
     * What a scan found: where the valid records end, and why the scan stopped there.
     */
    public static final class Result
    {
        public int validEnd;
        public long nextOffset;
        public int records;
        /** Whether any record asked for dedup: such a segment keeps its log's dedup window across restarts. */
        public boolean hasDedup;
        public long maxTimestamp = -1;
        public long firstTimestamp = -1;
        /** Null when the scan reached zero-filled space or the end of the file; otherwise what was wrong. */
        public String problem;
        public long problemOffset = -1;
        /** Bytes of records after the last offset index entry, so the writer resumes the same index spacing. */
        public int bytesSinceIndex = Integer.MAX_VALUE;
        public long lastIndexedTimestamp = Long.MIN_VALUE;
        public final IntArrayList offsetIndex = new IntArrayList();
        public final LongArrayList timeIndex = new LongArrayList();

        public int offsetIndexEntries()
        {
            return offsetIndex.size() / 2;
        }

        public int timeIndexEntries()
        {
            return timeIndex.size() / 2;
        }
    }

    /**
     * Scans {@code buffer} (the whole segment file, {@code limit} bytes) whose header says {@code baseOffset}.
     */
    public Result scan(final UnsafeBuffer buffer, final ByteBuffer checksumView, final int limit, final long baseOffset,
        final int indexIntervalBytes)
    {
        final Result result = new Result();
        result.nextOffset = baseOffset;
        int position = SegmentDescriptor.HEADER_LENGTH;
        result.validEnd = position;
        while (position + Integer.BYTES <= limit)
        {
            final int frameLength = buffer.getInt(position + FRAME_LENGTH_OFFSET);
            if (frameLength == 0)
            {
                break;
            }
            final String problem = check(buffer, checksumView, position, limit, frameLength, result.nextOffset);
            if (problem != null)
            {
                result.problem = problem;
                result.problemOffset = result.nextOffset;
                break;
            }
            final long timestamp = buffer.getLong(position + TIMESTAMP_OFFSET);
            if (result.firstTimestamp < 0)
            {
                result.firstTimestamp = timestamp;
            }
            result.maxTimestamp = Math.max(result.maxTimestamp, timestamp);
            final int relativeOffset = (int)(result.nextOffset - baseOffset);
            if (result.bytesSinceIndex >= indexIntervalBytes)
            {
                result.offsetIndex.addInt(relativeOffset);
                result.offsetIndex.addInt(position);
                if (result.maxTimestamp > result.lastIndexedTimestamp)
                {
                    result.timeIndex.addLong(result.maxTimestamp);
                    result.timeIndex.addLong(relativeOffset);
                    result.lastIndexedTimestamp = result.maxTimestamp;
                }
                result.bytesSinceIndex = 0;
            }
            final int aligned = align(frameLength);
            result.bytesSinceIndex += aligned;
            position += aligned;
            result.records++;
            result.hasDedup |= (buffer.getByte(position - aligned + ATTRIBUTES_OFFSET) & ATTRIBUTE_DEDUP) != 0;
            result.nextOffset++;
            result.validEnd = position;
        }
        return result;
    }

    private String check(final UnsafeBuffer buffer, final ByteBuffer checksumView, final int position, final int limit,
        final int frameLength, final long expectedOffset)
    {
        if (frameLength < HEADER_LENGTH)
        {
            return "frame length " + frameLength + " at position " + position + " is shorter than a record header";
        }
        if ((long)position + frameLength > limit)
        {
            return "frame length " + frameLength + " at position " + position + " runs past the end of the file";
        }
        final int version = buffer.getByte(position + VERSION_OFFSET);
        if (version != CURRENT_VERSION && version != VERSION_1)
        {
            return "unknown record version " + version + " at position " + position;
        }
        final int stored = buffer.getInt(position + CRC_OFFSET);
        final int computed = Checksums.record(crc, checksumView, position, frameLength, version);
        if (stored != computed)
        {
            return "CRC32C mismatch at position " + position + ": stored " + Integer.toHexString(stored) +
                ", computed " + Integer.toHexString(computed);
        }
        final long offset = buffer.getLong(position + OFFSET_OFFSET);
        if (offset != expectedOffset)
        {
            return "record at position " + position + " has offset " + offset + ", expected " + expectedOffset;
        }
        final long bodyLength = frameLengthExact(buffer.getInt(position + KEY_LENGTH_OFFSET),
            buffer.getInt(position + HEADERS_LENGTH_OFFSET), buffer.getInt(position + VALUE_LENGTH_OFFSET));
        if (bodyLength != frameLength || buffer.getInt(position + HEADERS_LENGTH_OFFSET) < 0 ||
            buffer.getInt(position + KEY_LENGTH_OFFSET) < -1 || buffer.getInt(position + VALUE_LENGTH_OFFSET) < -1)
        {
            return "record at position " + position + " has key, headers and value lengths that do not add up to its frame length " +
                frameLength;
        }
        return null;
    }

    /**
     * Whether the segment file header is intact and names {@code baseOffset}; null when it is, else what is wrong.
     */
    public static String checkHeader(final UnsafeBuffer buffer, final long fileLength, final long baseOffset)
    {
        if (fileLength < SegmentDescriptor.HEADER_LENGTH)
        {
            return "file of " + fileLength + " bytes is shorter than the segment header";
        }
        if (buffer.getLong(SegmentDescriptor.MAGIC_OFFSET) != SegmentDescriptor.SEGMENT_MAGIC)
        {
            return "bad magic in the segment header";
        }
        final int version = buffer.getInt(SegmentDescriptor.VERSION_OFFSET);
        if (version != SegmentDescriptor.FILE_VERSION)
        {
            return "unknown segment file version " + version;
        }
        final long stored = buffer.getLong(SegmentDescriptor.BASE_OFFSET_OFFSET);
        if (stored != baseOffset)
        {
            return "segment header names base offset " + stored + " but the file name says " + baseOffset;
        }
        return null;
    }
}
