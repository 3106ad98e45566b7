package io.spool.log.internal.segment;

import io.spool.api.log.LogConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static io.spool.log.internal.segment.SegmentDescriptor.*;

/**
 * The file operations behind a segment: creating its files with their headers, sizing and mapping them, trimming
 * them when the segment closes. Stateless.
 */
public final class SegmentFiles
{
    private static final int INDEX_FILL_BYTES = 64 << 10;

    private SegmentFiles()
    {
    }

    /** Creates a record file holding only its header; fails if the file exists. */
    static void createRecordFile(final Path path, final long baseOffset) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path,
            StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final ByteBuffer header = ByteBuffer.allocate(HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
            header.putLong(MAGIC_OFFSET, SEGMENT_MAGIC);
            header.putInt(VERSION_OFFSET, FILE_VERSION);
            header.putLong(BASE_OFFSET_OFFSET, baseOffset);
            channel.write(header, 0);
        }
    }

    static void writeIndexHeader(final Path path, final long magic, final int entryLength) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path,
            StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE))
        {
            channel.write(indexHeader(magic, entryLength), 0);
        }
    }

    public static ByteBuffer indexHeader(final long magic, final int entryLength)
    {
        final ByteBuffer header = ByteBuffer.allocate(INDEX_HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
        header.putLong(0, magic);
        header.putInt(VERSION_OFFSET, FILE_VERSION);
        header.putInt(INDEX_ENTRY_LENGTH_OFFSET, entryLength);
        return header;
    }

    static int offsetIndexCapacity(final LogConfig config)
    {
        return indexCapacity(config, OFFSET_INDEX_ENTRY_LENGTH);
    }

    static int timeIndexCapacity(final LogConfig config)
    {
        return indexCapacity(config, TIME_INDEX_ENTRY_LENGTH);
    }

    /** Room for an entry per index interval of a full segment, and two more for the ends. */
    private static int indexCapacity(final LogConfig config, final int entryLength)
    {
        return INDEX_HEADER_LENGTH + (config.segmentBytes() / config.indexIntervalBytes() + 2) * entryLength;
    }

    public static MappedByteBuffer map(final Path path, final FileChannel.MapMode mode, final long size) throws IOException
    {
        final boolean write = mode == FileChannel.MapMode.READ_WRITE;
        try (FileChannel channel = write ?
            FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE) :
            FileChannel.open(path, StandardOpenOption.READ))
        {
            if (write && channel.size() < size)
            {
                channel.write(ByteBuffer.allocate(1), size - 1);
            }
            return channel.map(mode, 0, size);
        }
    }

    /**
     * Maps a small file for writing with its blocks reserved: the missing bytes are written as zeros first, so a full
     * disk fails here with an {@link IOException}, not later with a SIGBUS on a store into a hole of the mapping.
     */
    static MappedByteBuffer mapAllocated(final Path path, final long size) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final ByteBuffer zeros = ByteBuffer.allocate(INDEX_FILL_BYTES);
            for (long at = channel.size(); at < size; at += zeros.position())
            {
                zeros.clear().limit((int)Math.min(INDEX_FILL_BYTES, size - at));
                channel.write(zeros, at);
            }
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, size);
        }
    }

    static void trim(final Path path, final long size)
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE))
        {
            channel.truncate(size);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot trim " + path, ex);
        }
    }
}
