package io.spool.queue.internal.store;

import io.spool.queue.CorruptStateException;
import io.spool.queue.DeadReason;
import io.spool.queue.StateStorageException;
import io.spool.queue.internal.state.StateLog;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

import static io.spool.queue.internal.store.JournalDescriptor.*;

/**
 * Replays a journal file into a {@link StateLog}, entry by entry, and finds where its valid part ends: at the first
 * entry whose length runs past the file, whose type is unknown, or whose checksum fails. Stateless and thread-safe.
 */
final class JournalReader
{
    private JournalReader()
    {
    }

    /**
     * @return the length of the valid part of the file; 0 if the file is missing or shorter than its header.
     * @throws CorruptStateException if the header is complete but belongs to another file or generation.
     */
    static long replay(final Path path, final long generation, final StateLog target)
    {
        if (!Files.exists(path))
        {
            return 0;
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ))
        {
            final long size = channel.size();
            if (size < FILE_HEADER_LENGTH)
            {
                return 0;
            }
            if (size > Integer.MAX_VALUE)
            {
                throw new CorruptStateException("journal " + path + " is " + size +
                    " bytes, more than a journal ever grows to between snapshots");
            }
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
            try
            {
                return replay(path, generation, new UnsafeBuffer(mapped), mapped, (int)size, target);
            }
            finally
            {
                IoUtil.unmap(mapped);
            }
        }
        catch (final IOException ex)
        {
            throw new StateStorageException("reading the subscription state journal " + path + " failed", ex);
        }
    }

    /**
     * The file's length without the zeros at its end when the journal's writer grew it: the writer grows the file
     * ahead of its writes by whole steps of zeros (see {@link MappedTail}), so a file left by a crash is a whole
     * number of steps long and ends in zeros that were never journal, which are not a torn write. (A torn write in
     * such a file that ends in zero bytes is counted short by those bytes.) A file of any other length is its length.
     *
     * @return 0 if the file is missing.
     */
    static long writtenLength(final Path path)
    {
        if (!Files.exists(path))
        {
            return 0;
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ))
        {
            final long size = channel.size();
            if (size == 0 || size % MappedTail.FILL_BYTES != 0 || size > Integer.MAX_VALUE)
            {
                return size;
            }
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_ONLY, 0, size);
            try
            {
                final UnsafeBuffer buffer = new UnsafeBuffer(mapped);
                int end = (int)size;
                while (end >= Long.BYTES && buffer.getLong(end - Long.BYTES) == 0)
                {
                    end -= Long.BYTES;
                }
                while (end > 0 && buffer.getByte(end - 1) == 0)
                {
                    end--;
                }
                return end;
            }
            finally
            {
                IoUtil.unmap(mapped);
            }
        }
        catch (final IOException ex)
        {
            throw new StateStorageException("reading the subscription state journal " + path + " failed", ex);
        }
    }

    private static long replay(
        final Path path, final long generation, final UnsafeBuffer buffer, final MappedByteBuffer mapped,
        final int size, final StateLog target)
    {
        final int magic = buffer.getInt(MAGIC_OFFSET, ByteOrder.LITTLE_ENDIAN);
        final int version = buffer.getInt(VERSION_OFFSET, ByteOrder.LITTLE_ENDIAN);
        final long fileGeneration = buffer.getLong(GENERATION_OFFSET, ByteOrder.LITTLE_ENDIAN);
        if (magic != MAGIC || version < OLDEST_READABLE_VERSION || version > VERSION || fileGeneration != generation)
        {
            throw new CorruptStateException("journal " + path + " has magic " + Integer.toHexString(magic) +
                ", version " + version + ", generation " + fileGeneration + "; expected magic " +
                Integer.toHexString(MAGIC) + ", version " + VERSION + ", generation " + generation);
        }
        final CRC32C crc = new CRC32C();
        int position = FILE_HEADER_LENGTH;
        while (position + ENTRY_HEADER_LENGTH <= size)
        {
            final int length = buffer.getInt(position + LENGTH_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final int type = buffer.getInt(position + TYPE_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final int count = buffer.getInt(position + COUNT_OFFSET, ByteOrder.LITTLE_ENDIAN);
            final int itemLength = itemLength(type);
            if (itemLength < 0 || count < 1 || length > size - position ||
                length != ENTRY_HEADER_LENGTH + (long)count * itemLength)
            {
                break;
            }
            mapped.limit(position + length).position(position + TYPE_OFFSET);
            crc.reset();
            crc.update(mapped);
            mapped.clear();
            if ((int)crc.getValue() != buffer.getInt(position + CRC_OFFSET, ByteOrder.LITTLE_ENDIAN))
            {
                break;
            }
            apply(buffer, position + ENTRY_HEADER_LENGTH, type, count, target);
            position += length;
        }
        return position;
    }

    private static void apply(
        final UnsafeBuffer buffer, final int itemsAt, final int type, final int count, final StateLog target)
    {
        final int itemLength = itemLength(type);
        for (int i = 0, at = itemsAt; i < count; i++, at += itemLength)
        {
            final long offset = buffer.getLong(at, ByteOrder.LITTLE_ENDIAN);
            switch (type)
            {
                case FIRST_DELIVERIES:
                    final long time = buffer.getLong(at + Long.BYTES + Integer.BYTES, ByteOrder.LITTLE_ENDIAN);
                    for (long o = offset, end = offset + buffer.getInt(at + Long.BYTES, ByteOrder.LITTLE_ENDIAN);
                        o < end; o++)
                    {
                        target.firstDelivery(o, time);
                    }
                    break;
                case REDELIVERY:
                    target.redelivery(offset, buffer.getInt(at + Long.BYTES, ByteOrder.LITTLE_ENDIAN));
                    break;
                case ACK:
                    target.acked(offset);
                    break;
                case ACK_RANGE:
                    target.ackedRange(offset, buffer.getInt(at + Long.BYTES, ByteOrder.LITTLE_ENDIAN));
                    break;
                case DEAD:
                    target.dead(offset, DeadReason.fromCode(buffer.getInt(at + Long.BYTES, ByteOrder.LITTLE_ENDIAN)));
                    break;
                case DEAD_LETTER_DUE:
                    target.deadLetterDue(offset,
                        DeadReason.fromCode(buffer.getInt(at + Long.BYTES, ByteOrder.LITTLE_ENDIAN)),
                        buffer.getInt(at + Long.BYTES + Integer.BYTES, ByteOrder.LITTLE_ENDIAN),
                        buffer.getLong(at + Long.BYTES + 2 * Integer.BYTES, ByteOrder.LITTLE_ENDIAN));
                    break;
                case DEAD_LETTER_STORED:
                    target.deadLetterStored(offset);
                    break;
                default:
                    target.delayed(offset, buffer.getLong(at + Long.BYTES, ByteOrder.LITTLE_ENDIAN));
                    break;
            }
        }
    }
}
