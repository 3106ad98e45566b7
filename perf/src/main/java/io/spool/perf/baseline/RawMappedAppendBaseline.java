package io.spool.perf.baseline;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import static io.spool.api.log.RecordDescriptor.*;

/**
 * The yardstick for appends: one thread framing records (header, CRC32C, value) into pre-allocated memory-mapped
 * segment files in a plain loop, with none of the log's machinery (no ring, no index, no confirms). The frames are
 * the log's, as {@link io.spool.api.log.RecordDescriptor} lays them out, for a null key and no headers.
 * <p>
 * Design note: with {@link Pages#PREPARED} pages (the yardstick of the benchmarks) the segments are created,
 * zero-filled, mapped and touched page by page up front, outside any measured loop, so the loop measures framing
 * into resident mapped memory: neither the file system allocating blocks nor first-write page faults (which cost
 * more than the framing itself here, and which a log can only move to another thread) are in the figure. With
 * {@link Pages#FRESH} pages the segments are sparse files, as a log creates its own, and the loop takes every
 * page's first-write fault itself: the same work a log on a fresh directory has to pay somewhere.
 * The appender rolls to the next segment when a frame does
 * not fit, as a log does; after the last segment it reuses the first, so a benchmark of unknown length keeps a
 * small pool. Only a run that never wrapped can be scanned back. Not thread-safe: one appending thread.
 */
public final class RawMappedAppendBaseline implements AutoCloseable
{
    /** How the segment pages are readied before the measured loop. */
    public enum Pages
    {
        /** Blocks written with zeros and every page touched up front: the loop never faults. */
        PREPARED,
        /**
         * Blocks written with zeros up front, so the file is allocated and its pages sit in the page cache, but the
         * mapping is fresh: the loop takes a minor fault per page, with no zero-fill and no block allocation.
         */
        ALLOCATED,
        /** Sparse files, nothing touched: the loop faults in and zero-fills each page as it first writes it. */
        FRESH
    }

    private static final int PAGE_SIZE = 4096;
    private static final int NULL_KEY = -1;
    private static final int NO_HEADERS = 0;

    private final int segmentBytes;
    private final int valueLength;
    private final int frameLength;
    private final int alignedFrameLength;
    private final UnsafeBuffer value;
    private final CRC32C crc = new CRC32C();
    private final List<Path> segmentFiles = new ArrayList<>();
    private final MappedByteBuffer[] mappedSegments;
    private final UnsafeBuffer[] segments;
    private final ByteBuffer[] crcViews;
    private UnsafeBuffer segment;
    private ByteBuffer crcView;
    private int activeSegment = -1;
    private int position;
    private long nextOffset;

    /**
     * Creates, zero-fills, maps and touches {@code segmentCount} segment files of {@code segmentBytes} each.
     *
     * @param directory an existing directory holding no earlier baseline segments.
     * @param value     the value every record carries, copied into each frame.
     */
    public RawMappedAppendBaseline(
        final Path directory, final int segmentBytes, final int segmentCount, final byte[] value)
    {
        this(directory, segmentBytes, segmentCount, value, Pages.PREPARED);
    }

    /**
     * Creates and maps {@code segmentCount} segment files of {@code segmentBytes} each, readied as {@code pages} says.
     *
     * @param directory an existing directory holding no earlier baseline segments.
     * @param value     the value every record carries, copied into each frame.
     */
    public RawMappedAppendBaseline(
        final Path directory, final int segmentBytes, final int segmentCount, final byte[] value, final Pages pages)
    {
        this.segmentBytes = segmentBytes;
        this.valueLength = value.length;
        this.frameLength = frameLength(NULL_KEY, NO_HEADERS, valueLength);
        this.alignedFrameLength = align(frameLength);
        if (alignedFrameLength > segmentBytes)
        {
            throw new IllegalArgumentException("a " + valueLength + "-byte value needs " + alignedFrameLength +
                " bytes, segments hold " + segmentBytes);
        }
        if (segmentCount < 1)
        {
            throw new IllegalArgumentException("at least one segment is needed, asked for " + segmentCount);
        }
        this.value = new UnsafeBuffer(ByteBuffer.allocateDirect(valueLength));
        this.value.putBytes(0, value);
        this.mappedSegments = new MappedByteBuffer[segmentCount];
        this.segments = new UnsafeBuffer[segmentCount];
        this.crcViews = new ByteBuffer[segmentCount];
        for (int i = 0; i < segmentCount; i++)
        {
            final Path file = create(directory.resolve(String.format("raw-%05d.log", i)), segmentBytes, pages);
            segmentFiles.add(file);
            mappedSegments[i] = IoUtil.mapExistingFile(file.toFile(), FileChannel.MapMode.READ_WRITE, "baseline");
            segments[i] = new UnsafeBuffer(mappedSegments[i]);
            crcViews[i] = mappedSegments[i].duplicate();
            if (pages == Pages.PREPARED)
            {
                touchEveryPage(segments[i]);
            }
        }
        rollSegment();
    }

    /** Segments needed to hold {@code records} records of {@code valueLength}-byte values without wrapping. */
    public static int segmentsFor(final long records, final int valueLength, final int segmentBytes)
    {
        final long framesPerSegment = segmentBytes / align(frameLength(NULL_KEY, NO_HEADERS, valueLength));
        return (int)Math.max(1, (records + framesPerSegment - 1) / framesPerSegment);
    }

    /**
     * Appends {@code count} records stamped with one timestamp: the clock is read once per call, not per record.
     *
     * @return the offset of the next record to be appended.
     */
    public long append(final int count, final long timestamp)
    {
        for (int i = 0; i < count; i++)
        {
            if (position + alignedFrameLength > segmentBytes)
            {
                rollSegment();
            }
            appendFrame(position, timestamp);
            position += alignedFrameLength;
        }
        return nextOffset;
    }

    private void appendFrame(final int frameOffset, final long timestamp)
    {
        final UnsafeBuffer buffer = segment;
        // Version 1: one thread frames and checksums every byte, the offset included, as the log did before producers
        // framed their own records.
        buffer.putByte(frameOffset + VERSION_OFFSET, VERSION_1);
        buffer.putByte(frameOffset + ATTRIBUTES_OFFSET, (byte)0);
        buffer.putShort(frameOffset + RESERVED_OFFSET, (short)0);
        buffer.putInt(frameOffset + KEY_LENGTH_OFFSET, NULL_KEY);
        buffer.putLong(frameOffset + OFFSET_OFFSET, nextOffset++);
        buffer.putLong(frameOffset + TIMESTAMP_OFFSET, timestamp);
        buffer.putInt(frameOffset + HEADERS_LENGTH_OFFSET, NO_HEADERS);
        buffer.putInt(frameOffset + VALUE_LENGTH_OFFSET, valueLength);
        buffer.putBytes(frameOffset + HEADER_LENGTH, value, 0, valueLength);

        crc.reset();
        crcView.limit(frameOffset + frameLength).position(frameOffset + CRC_START_OFFSET);
        crc.update(crcView);
        buffer.putInt(frameOffset + CRC_OFFSET, (int)crc.getValue());
        buffer.putIntOrdered(frameOffset + FRAME_LENGTH_OFFSET, frameLength);
    }

    /** The pre-allocated segment files, in the order they are written. */
    public List<Path> segmentFiles()
    {
        return List.copyOf(segmentFiles);
    }

    /** Unmaps the segments; the files stay for a scan. No append may follow. */
    @Override
    public void close()
    {
        for (int i = 0; i < mappedSegments.length; i++)
        {
            if (mappedSegments[i] != null)
            {
                IoUtil.unmap(mappedSegments[i]);
                mappedSegments[i] = null;
            }
        }
        segment = null;
        crcView = null;
    }

    private void rollSegment()
    {
        activeSegment = (activeSegment + 1) % segments.length;
        segment = segments[activeSegment];
        crcView = crcViews[activeSegment];
        position = 0;
    }

    /** A write, not a read, so that the page is mapped writable and marked dirty before the measured loop. */
    private static void touchEveryPage(final UnsafeBuffer segment)
    {
        for (int offset = 0; offset < segment.capacity(); offset += PAGE_SIZE)
        {
            segment.putByte(offset, (byte)0);
        }
    }

    private static Path create(final Path file, final int length, final Pages pages)
    {
        try (FileChannel channel = IoUtil.createEmptyFile(file.toFile(), length, pages != Pages.FRESH))
        {
            return file;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot pre-allocate segment " + file, ex);
        }
    }
}
