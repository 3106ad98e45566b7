package io.spool.perf.baseline;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.List;

import static io.spool.api.log.RecordDescriptor.*;

/**
 * The yardstick for replay: a plain loop reading frames back from mapped segment files (length, offset, and one
 * byte of the value so the value's cache line is really loaded), with none of the log's machinery (no index, no
 * committed position, no handler). The segments are mapped once, up front. Not thread-safe: one scanning thread.
 */
public final class RawMappedScanBaseline implements AutoCloseable
{
    private final MappedByteBuffer[] mappedSegments;
    private final UnsafeBuffer[] segments;
    private long checksum;

    /** @param segmentFiles segments written by {@link RawMappedAppendBaseline}, oldest first. */
    public RawMappedScanBaseline(final List<Path> segmentFiles)
    {
        mappedSegments = new MappedByteBuffer[segmentFiles.size()];
        segments = new UnsafeBuffer[segmentFiles.size()];
        for (int i = 0; i < segmentFiles.size(); i++)
        {
            mappedSegments[i] = IoUtil.mapExistingFile(
                segmentFiles.get(i).toFile(), FileChannel.MapMode.READ_ONLY, "baseline segment");
            segments[i] = new UnsafeBuffer(mappedSegments[i]);
        }
    }

    /**
     * Reads every record of every segment in order.
     *
     * @return the number of records read.
     */
    public long scan()
    {
        long records = 0;
        long sum = 0;
        for (final UnsafeBuffer segment : segments)
        {
            final int capacity = segment.capacity();
            int position = 0;
            while (position + HEADER_LENGTH <= capacity)
            {
                final int frameLength = segment.getInt(position + FRAME_LENGTH_OFFSET);
                if (frameLength <= 0)
                {
                    break;
                }
                // The value ends the frame: its last byte is the frame's last byte.
                sum += segment.getLong(position + OFFSET_OFFSET)
                    + segment.getInt(position + VALUE_LENGTH_OFFSET)
                    + segment.getByte(position + frameLength - 1);
                records++;
                position += align(frameLength);
            }
        }
        checksum = sum;
        return records;
    }

    /** A sum over what the last {@link #scan()} read, so that the reads cannot be optimised away. */
    public long checksum()
    {
        return checksum;
    }

    @Override
    public void close()
    {
        for (final MappedByteBuffer mapped : mappedSegments)
        {
            IoUtil.unmap(mapped);
        }
    }
}
