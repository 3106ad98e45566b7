package io.spool.stream.internal.producer;

import io.spool.log.DurableFiles;
import io.spool.log.FileSync;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The journal of one partition's idempotent producers: an entry is written when a batch is accepted (before its
 * records are appended, so a record in the log always has its entry), when it is stored (with its offset) and when
 * it failed. Written with plain writes, which outlive a crash of the process; {@link #rewrite} replaces it with the
 * entries that describe the producers' state now, so it stays small. Not thread-safe: its partition's lock
 * serialises it.
 * <pre>
 *   type (1) | producer id (8) | epoch (2) | first sequence (4) | last sequence (4) | records (4)
 *   | lowest offset (8) | fingerprint (4) | base offset (8, -1 unknown) | CRC32C of the bytes before (4)
 * </pre>
 * A torn or damaged entry ends the journal: what follows it is not read.
 */
public final class ProducerJournal implements AutoCloseable
{
    public static final byte ACCEPTED = 1;
    public static final byte STORED = 2;
    public static final byte FAILED = 3;
    public static final int ENTRY_BYTES = 47;
    private static final int CHECKED_BYTES = ENTRY_BYTES - Integer.BYTES;
    /** Past this size the journal is rewritten from the producers' state. */
    public static final long REWRITE_BYTES = 1 << 20;

    private final Path file;
    private final FileSync sync;
    private final ByteBuffer entry = ByteBuffer.allocate(ENTRY_BYTES);
    private final CRC32C crc = new CRC32C();
    private FileChannel channel;
    private long size;

    /** One entry, as read back. */
    public record Entry(byte type, long producerId, short epoch, int firstSequence, int lastSequence, int recordCount,
        long lowestOffset, int fingerprint, long baseOffset)
    {
    }

    public ProducerJournal(final Path file, final FileSync sync)
    {
        this.file = file;
        this.sync = sync;
    }

    /** Appends one entry. */
    public void write(final byte type, final long producerId, final short epoch, final int firstSequence,
        final int lastSequence, final int recordCount, final long lowestOffset, final int fingerprint,
        final long baseOffset)
    {
        encode(entry.clear(), type, producerId, epoch, firstSequence, lastSequence, recordCount, lowestOffset,
            fingerprint, baseOffset);
        try
        {
            final FileChannel out = channel();
            entry.flip();
            while (entry.hasRemaining())
            {
                out.write(entry);
            }
            size += ENTRY_BYTES;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write the producer journal " + file.getFileName(), ex);
        }
    }

    public boolean needsRewrite()
    {
        return size > REWRITE_BYTES;
    }

    /** Replaces the journal atomically with {@code entries}. */
    public void rewrite(final List<Entry> entries)
    {
        final ByteBuffer content = ByteBuffer.allocate(entries.size() * ENTRY_BYTES);
        for (final Entry e : entries)
        {
            encode(content, e.type, e.producerId, e.epoch, e.firstSequence, e.lastSequence, e.recordCount,
                e.lowestOffset, e.fingerprint, e.baseOffset);
        }
        closeChannel();
        DurableFiles.replace(sync, file, content.array());
        size = content.capacity();
    }

    /** The entries in order, up to the first torn or damaged one. */
    public List<Entry> read()
    {
        final byte[] content = DurableFiles.read(file);
        final List<Entry> entries = new ArrayList<>();
        if (content == null)
        {
            return entries;
        }
        final ByteBuffer in = ByteBuffer.wrap(content);
        while (in.remaining() >= ENTRY_BYTES)
        {
            final int start = in.position();
            crc.reset();
            crc.update(content, start, CHECKED_BYTES);
            final Entry e = new Entry(in.get(), in.getLong(), in.getShort(), in.getInt(), in.getInt(), in.getInt(),
                in.getLong(), in.getInt(), in.getLong());
            if (in.getInt() != (int)crc.getValue() || e.type < ACCEPTED || e.type > FAILED)
            {
                break;
            }
            entries.add(e);
        }
        return entries;
    }

    public void delete()
    {
        closeChannel();
        try
        {
            Files.deleteIfExists(file);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot delete the producer journal " + file.getFileName(), ex);
        }
    }

    private void encode(final ByteBuffer out, final byte type, final long producerId, final short epoch,
        final int firstSequence, final int lastSequence, final int recordCount, final long lowestOffset,
        final int fingerprint, final long baseOffset)
    {
        final int start = out.position();
        out.put(type).putLong(producerId).putShort(epoch).putInt(firstSequence).putInt(lastSequence)
            .putInt(recordCount).putLong(lowestOffset).putInt(fingerprint).putLong(baseOffset);
        crc.reset();
        crc.update(out.array(), out.arrayOffset() + start, CHECKED_BYTES);
        out.putInt((int)crc.getValue());
    }

    private FileChannel channel() throws IOException
    {
        if (channel == null)
        {
            Files.createDirectories(file.getParent());
            channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND);
            size = channel.size();
        }
        return channel;
    }

    private void closeChannel()
    {
        if (channel != null)
        {
            try
            {
                channel.close();
            }
            catch (final IOException ex)
            {
                throw new UncheckedIOException("cannot close the producer journal " + file.getFileName(), ex);
            }
            channel = null;
        }
    }

    @Override
    public void close()
    {
        closeChannel();
    }
}
