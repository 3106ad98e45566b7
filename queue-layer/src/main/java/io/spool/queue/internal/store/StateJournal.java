package io.spool.queue.internal.store;

import io.spool.log.FileSync;
import io.spool.queue.DeadReason;
import io.spool.queue.StateDurability;
import io.spool.queue.StateStorageException;
import io.spool.queue.internal.state.StateLog;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.concurrent.EpochClock;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

import static io.spool.queue.internal.store.JournalDescriptor.*;

/**
 * Appends state changes to the journal file: changes collect in a buffer, consecutive changes of one type share an
 * entry, and {@link #commit()} copies the batch into the file's mapped tail ({@link MappedTail}) and forces it per
 * the {@link StateDurability}. Not thread-safe: owned by the subscription partition's thread.
 * <p>
 * Design note: a batch reaches the file (the page cache) before commit returns under every policy, which is what
 * makes a committed ack survive SIGKILL; the policy only adds forcing, which is what survives a power cut.
 */
final class StateJournal implements StateLog, AutoCloseable
{
    static final int ACK_RUN_TO_RANGE = 4;

    private final ExpandableDirectByteBuffer pending = new ExpandableDirectByteBuffer(64 * 1024);
    private final CRC32C crc = new CRC32C();
    private final StateDurability durability;
    private final int windowBytes;
    private final FileSync sync;
    private final EpochClock clock;
    private FileChannel channel;
    private MappedTail tail;
    private Path path;
    private long fileLength;
    /** The journal is forced up to here: a force covers what was written since. */
    private long forcedEnd;
    private int pendingLength;
    private int openEntryAt = -1;
    private int openType;
    private boolean unforced;
    private long lastForceMillis;

    /** Opens a journal for appending after {@code validLength} bytes, writing a header if the file is new. */
    StateJournal(
        final Path path, final long generation, final long validLength, final StateDurability durability,
        final int windowBytes, final FileSync sync, final EpochClock clock)
    {
        this.durability = durability;
        this.windowBytes = windowBytes;
        this.sync = sync;
        this.clock = clock;
        this.lastForceMillis = clock.time();
        open(path, generation, validLength);
    }

    @Override
    public void firstDelivery(final long offset, final long timeMillis)
    {
        firstDeliveries(offset, 1, timeMillis);
    }

    /** Lengthens the open item when the run continues it at the same time, else starts an item. */
    @Override
    public void firstDeliveries(final long offset, final int count, final long timeMillis)
    {
        if (openType == FIRST_DELIVERIES && openEntryAt >= 0)
        {
            final int lastItemAt = pendingLength - itemLength(FIRST_DELIVERIES);
            final long from = pending.getLong(lastItemAt, ByteOrder.LITTLE_ENDIAN);
            final int length = pending.getInt(lastItemAt + Long.BYTES, ByteOrder.LITTLE_ENDIAN);
            final long time = pending.getLong(lastItemAt + Long.BYTES + Integer.BYTES, ByteOrder.LITTLE_ENDIAN);
            if (from + length == offset && time == timeMillis)
            {
                pending.putInt(lastItemAt + Long.BYTES, length + count, ByteOrder.LITTLE_ENDIAN);
                return;
            }
        }
        final int at = beginItem(FIRST_DELIVERIES);
        pending.putLong(at, offset, ByteOrder.LITTLE_ENDIAN);
        pending.putInt(at + Long.BYTES, count, ByteOrder.LITTLE_ENDIAN);
        pending.putLong(at + Long.BYTES + Integer.BYTES, timeMillis, ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public void redelivery(final long offset, final int deliveryNumber)
    {
        final int at = beginItem(REDELIVERY);
        pending.putLong(at, offset, ByteOrder.LITTLE_ENDIAN);
        pending.putInt(at + Long.BYTES, deliveryNumber, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Acks are journaled one offset per item, except that a run of acks in offset order turns into a range item once
     * it reaches {@link #ACK_RUN_TO_RANGE} offsets: in-order acks then cost a few bytes per batch, while scattered
     * acks keep their 8 bytes each.
     */
    @Override
    public void acked(final long offset)
    {
        if (extendsOpenRange(offset, 1))
        {
            return;
        }
        final int runBefore = ACK_RUN_TO_RANGE - 1;
        if (openEntryAt >= 0 && openType == ACK && endsWithRun(offset, runBefore))
        {
            final int items = pending.getInt(openEntryAt + COUNT_OFFSET, ByteOrder.LITTLE_ENDIAN) - runBefore;
            pendingLength -= runBefore * itemLength(ACK);
            pending.putInt(openEntryAt + COUNT_OFFSET, items, ByteOrder.LITTLE_ENDIAN);
            if (items == 0)
            {
                pendingLength = openEntryAt;
                openEntryAt = -1;
            }
            final int at = beginItem(ACK_RANGE);
            pending.putLong(at, offset - runBefore, ByteOrder.LITTLE_ENDIAN);
            pending.putInt(at + Long.BYTES, ACK_RUN_TO_RANGE, ByteOrder.LITTLE_ENDIAN);
            return;
        }
        pending.putLong(beginItem(ACK), offset, ByteOrder.LITTLE_ENDIAN);
    }

    /** A range long enough to be one item becomes one (or lengthens the open range it continues). */
    @Override
    public void ackedRange(final long from, final int count)
    {
        if (count < ACK_RUN_TO_RANGE)
        {
            StateLog.super.ackedRange(from, count);
            return;
        }
        if (extendsOpenRange(from, count))
        {
            return;
        }
        final int at = beginItem(ACK_RANGE);
        pending.putLong(at, from, ByteOrder.LITTLE_ENDIAN);
        pending.putInt(at + Long.BYTES, count, ByteOrder.LITTLE_ENDIAN);
    }

    /** Lengthens the open ack range item by {@code count} if it ends at {@code offset}. */
    private boolean extendsOpenRange(final long offset, final int count)
    {
        if (openEntryAt < 0 || openType != ACK_RANGE)
        {
            return false;
        }
        final int lastItemAt = pendingLength - itemLength(ACK_RANGE);
        final long from = pending.getLong(lastItemAt, ByteOrder.LITTLE_ENDIAN);
        final int length = pending.getInt(lastItemAt + Long.BYTES, ByteOrder.LITTLE_ENDIAN);
        if (from + length != offset)
        {
            return false;
        }
        pending.putInt(lastItemAt + Long.BYTES, length + count, ByteOrder.LITTLE_ENDIAN);
        return true;
    }

    @Override
    public void dead(final long offset, final DeadReason reason)
    {
        final int at = beginItem(DEAD);
        pending.putLong(at, offset, ByteOrder.LITTLE_ENDIAN);
        pending.putInt(at + Long.BYTES, reason.code(), ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public void deadLetterDue(final long offset, final DeadReason reason, final int deliveries, final long timeMillis)
    {
        final int at = beginItem(DEAD_LETTER_DUE);
        pending.putLong(at, offset, ByteOrder.LITTLE_ENDIAN);
        pending.putInt(at + Long.BYTES, reason.code(), ByteOrder.LITTLE_ENDIAN);
        pending.putInt(at + Long.BYTES + Integer.BYTES, deliveries, ByteOrder.LITTLE_ENDIAN);
        pending.putLong(at + Long.BYTES + 2 * Integer.BYTES, timeMillis, ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public void deadLetterStored(final long offset)
    {
        pending.putLong(beginItem(DEAD_LETTER_STORED), offset, ByteOrder.LITTLE_ENDIAN);
    }

    @Override
    public void delayed(final long offset, final long untilMillis)
    {
        final int at = beginItem(DELAY);
        pending.putLong(at, offset, ByteOrder.LITTLE_ENDIAN);
        pending.putLong(at + Long.BYTES, untilMillis, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Writes every change since the last commit to the file, then forces it if the policy asks.
     *
     * @return the number of bytes written.
     */
    int commit()
    {
        sealOpenEntry();
        final int written = pendingLength;
        try
        {
            if (pendingLength > 0)
            {
                tail.write(fileLength, pending, 0, pendingLength);
                fileLength += pendingLength;
                pendingLength = 0;
                unforced = true;
            }
            if (unforced && isForceDue())
            {
                force();
            }
        }
        catch (final IOException ex)
        {
            throw new StateStorageException("writing the subscription state journal " + path + " failed", ex);
        }
        return written;
    }

    /** Commits, forces, and continues in a new empty file for the next generation. */
    void rollTo(final Path newPath, final long newGeneration)
    {
        commit();
        close();
        open(newPath, newGeneration, 0);
    }

    long fileLength()
    {
        return fileLength + pendingLength;
    }

    @Override
    public void close()
    {
        try
        {
            if (channel.isOpen())
            {
                commit();
                tail.close();
                channel.truncate(fileLength);
                force();
                channel.close();
            }
        }
        catch (final IOException ex)
        {
            throw new StateStorageException("closing the subscription state journal " + path + " failed", ex);
        }
    }

    /** Whether the open ack entry ends with the {@code run} offsets just below {@code offset}. */
    private boolean endsWithRun(final long offset, final int run)
    {
        if (pending.getInt(openEntryAt + COUNT_OFFSET, ByteOrder.LITTLE_ENDIAN) < run)
        {
            return false;
        }
        for (int i = 1; i <= run; i++)
        {
            if (pending.getLong(pendingLength - i * itemLength(ACK), ByteOrder.LITTLE_ENDIAN) != offset - i)
            {
                return false;
            }
        }
        return true;
    }

    private boolean isForceDue()
    {
        switch (durability.kind())
        {
            case EVERY_BATCH:
                return true;
            case INTERVAL:
                return clock.time() - lastForceMillis >= durability.intervalMillis();
            default:
                return false;
        }
    }

    private void force() throws IOException
    {
        sync.force(path, channel, forcedEnd, fileLength);
        forcedEnd = fileLength;
        unforced = false;
        lastForceMillis = clock.time();
    }

    private int beginItem(final int type)
    {
        if (openType != type || openEntryAt < 0)
        {
            sealOpenEntry();
            openEntryAt = pendingLength;
            openType = type;
            pending.putInt(openEntryAt + TYPE_OFFSET, type, ByteOrder.LITTLE_ENDIAN);
            pending.putInt(openEntryAt + COUNT_OFFSET, 0, ByteOrder.LITTLE_ENDIAN);
            pendingLength += ENTRY_HEADER_LENGTH;
        }
        final int countAt = openEntryAt + COUNT_OFFSET;
        pending.putInt(countAt, pending.getInt(countAt, ByteOrder.LITTLE_ENDIAN) + 1, ByteOrder.LITTLE_ENDIAN);
        final int itemAt = pendingLength;
        pendingLength += itemLength(type);
        pending.checkLimit(pendingLength);
        return itemAt;
    }

    private void sealOpenEntry()
    {
        if (openEntryAt < 0)
        {
            return;
        }
        pending.putInt(openEntryAt + LENGTH_OFFSET, pendingLength - openEntryAt, ByteOrder.LITTLE_ENDIAN);
        final ByteBuffer bytes = pending.byteBuffer();
        bytes.limit(pendingLength).position(openEntryAt + TYPE_OFFSET);
        crc.reset();
        crc.update(bytes);
        bytes.clear();
        pending.putInt(openEntryAt + CRC_OFFSET, (int)crc.getValue(), ByteOrder.LITTLE_ENDIAN);
        openEntryAt = -1;
        openType = 0;
    }

    private void open(final Path newPath, final long generation, final long validLength)
    {
        path = newPath;
        try
        {
            channel = FileChannel.open(newPath, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
            if (validLength < FILE_HEADER_LENGTH)
            {
                final ByteBuffer header = ByteBuffer.allocate(FILE_HEADER_LENGTH).order(ByteOrder.LITTLE_ENDIAN);
                header.putInt(MAGIC_OFFSET, MAGIC).putInt(VERSION_OFFSET, VERSION).putLong(GENERATION_OFFSET, generation);
                channel.truncate(0);
                while (header.hasRemaining())
                {
                    channel.write(header, header.position());
                }
                sync.force(newPath, channel, true);
                // A new journal's entry is forced too: without it the journal, and every settlement it holds,
                // could vanish with the power while the snapshot that hands over to it stays.
                sync.forceDirectory(newPath.toAbsolutePath().getParent());
                fileLength = FILE_HEADER_LENGTH;
            }
            else
            {
                channel.truncate(validLength);
                fileLength = validLength;
            }
            forcedEnd = fileLength;
            tail = new MappedTail(channel, fileLength, windowBytes);
        }
        catch (final IOException ex)
        {
            throw new StateStorageException("opening the subscription state journal " + newPath + " failed", ex);
        }
    }
}
