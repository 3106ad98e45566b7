package io.spool.queue.internal.store;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.log.DurableFiles;
import io.spool.log.FileSync;
import io.spool.queue.CorruptStateException;
import io.spool.queue.DeadLetterHandler;
import io.spool.queue.StateStorageException;
import io.spool.queue.internal.state.StateLog;
import io.spool.queue.internal.state.SubscriptionPartitionState;
import io.spool.queue.internal.table.FirstDeliveryTimes;
import io.spool.queue.internal.table.InFlightTable;
import io.spool.queue.internal.table.OffsetWindow;
import org.agrona.ExpandableDirectByteBuffer;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.zip.CRC32C;

import static io.spool.queue.internal.store.SnapshotDescriptor.*;

/**
 * Writes and reads snapshots of a subscription partition's durable state (see {@link SnapshotDescriptor}).
 * A snapshot is written to a temporary file, forced, and renamed over the previous one, so there is always one
 * complete snapshot; that is done for its copy first and then for the snapshot itself, so one damaged file costs
 * nothing. Stateless and thread-safe; the state passed in must not change during a call.
 */
public final class StateSnapshot
{
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private StateSnapshot()
    {
    }

    /** A snapshot read back: the restored state (without a journal yet), its generation, and its delays. */
    static final class Restored
    {
        final SubscriptionPartitionState state;
        final long generation;
        final Long2LongHashMap delayUntilByOffset;
        /** Why the snapshot itself was not read and its copy was, or null when it was. */
        final String damage;

        Restored(final SubscriptionPartitionState state, final long generation, final Long2LongHashMap delays)
        {
            this(state, generation, delays, null);
        }

        private Restored(final SubscriptionPartitionState state, final long generation, final Long2LongHashMap delays,
            final String damage)
        {
            this.state = state;
            this.generation = generation;
            this.delayUntilByOffset = delays;
            this.damage = damage;
        }
    }

    /** Whether {@code directory} holds a snapshot or its copy. */
    static boolean exists(final Path directory)
    {
        return Files.exists(directory.resolve(FILE_NAME)) || Files.exists(directory.resolve(COPY_FILE_NAME));
    }

    /**
     * Reads the snapshot in {@code directory}, or its copy when the snapshot is missing or fails its checks.
     *
     * @throws CorruptStateException if both fail (the snapshot's problem, the copy's suppressed).
     */
    static Restored readEither(
        final Path directory, final SubscriptionSettings settings, final EpochClock clock,
        final DeadLetterHandler deadLetters, final FileSync sync)
    {
        final Path file = directory.resolve(FILE_NAME);
        final Path copy = directory.resolve(COPY_FILE_NAME);
        CorruptStateException damage = null;
        if (Files.exists(file))
        {
            try
            {
                return read(file, settings, clock, deadLetters);
            }
            catch (final CorruptStateException ex)
            {
                damage = ex;
            }
        }
        if (!Files.exists(copy))
        {
            throw damage;
        }
        try
        {
            final Restored restored = read(copy, settings, clock, deadLetters);
            DurableFiles.replace(sync, file, Files.readAllBytes(copy));
            return new Restored(restored.state, restored.generation, restored.delayUntilByOffset,
                damage == null ? FILE_NAME + " is missing" : damage.getMessage());
        }
        catch (final CorruptStateException ex)
        {
            if (damage == null)
            {
                throw ex;
            }
            damage.addSuppressed(ex);
            throw damage;
        }
        catch (final IOException | java.io.UncheckedIOException ex)
        {
            throw new StateStorageException("restoring the snapshot " + file + " from its copy failed", ex);
        }
    }

    /** @return the snapshot's size in bytes. */
    static long write(final Path directory, final SubscriptionPartitionState state, final long generation,
        final FileSync sync)
    {
        final ExpandableDirectByteBuffer buffer = new ExpandableDirectByteBuffer(4096);
        final int length = encode(buffer, state, generation);
        install(directory, buffer, length, COPY_FILE_NAME, sync);
        install(directory, buffer, length, FILE_NAME, sync);
        return length;
    }

    private static void install(final Path directory, final ExpandableDirectByteBuffer buffer, final int length,
        final String name, final FileSync sync)
    {
        final Path temp = directory.resolve(TEMP_FILE_NAME);
        try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING))
        {
            final ByteBuffer bytes = buffer.byteBuffer();
            bytes.limit(length).position(0);
            while (bytes.hasRemaining())
            {
                channel.write(bytes);
            }
            sync.force(temp, channel, true);
        }
        catch (final IOException ex)
        {
            throw new StateStorageException("writing the subscription state snapshot " + temp + " failed", ex);
        }
        try
        {
            Files.move(temp, directory.resolve(name), StandardCopyOption.ATOMIC_MOVE,
                StandardCopyOption.REPLACE_EXISTING);
            sync.forceDirectory(directory);
        }
        catch (final IOException ex)
        {
            throw new StateStorageException("installing the subscription state snapshot " + name + " in " +
                directory + " failed", ex);
        }
    }

    /** The state as a snapshot's bytes (generation 0), for a store that keeps them in a file of its own. */
    public static byte[] encode(final SubscriptionPartitionState state)
    {
        final ExpandableDirectByteBuffer buffer = new ExpandableDirectByteBuffer(4096);
        final byte[] bytes = new byte[encode(buffer, state, 0)];
        buffer.getBytes(0, bytes);
        return bytes;
    }

    /**
     * Decodes {@link #encode} bytes, read from {@code file}, into a state ready to use. The delivered, unsettled
     * messages of {@code locks} (offset to lock deadline) stay held by {@code holder}; the others come back as they
     * do after a restart.
     *
     * @throws CorruptStateException if the bytes fail their checksum or format checks.
     */
    public static SubscriptionPartitionState restore(
        final Path file, final byte[] bytes, final SubscriptionSettings settings, final EpochClock clock,
        final DeadLetterHandler deadLetters, final Long2LongHashMap locks, final int holder)
    {
        final Restored restored = read(file, bytes, settings, clock, deadLetters);
        new StateRestorer(restored.state, restored.delayUntilByOffset).complete(locks, holder);
        restored.state.restore().finish();
        return restored.state;
    }

    /**
     * @throws CorruptStateException if the file fails its checksum or format checks.
     */
    public static Restored read(
        final Path file, final SubscriptionSettings settings, final EpochClock clock,
        final DeadLetterHandler deadLetters)
    {
        final byte[] bytes;
        try
        {
            bytes = Files.readAllBytes(file);
        }
        catch (final IOException ex)
        {
            throw new StateStorageException("reading the subscription state snapshot " + file + " failed", ex);
        }
        return read(file, bytes, settings, clock, deadLetters);
    }

    /**
     * Decodes a snapshot's content, read from {@code file}.
     *
     * @throws CorruptStateException if it fails its checksum or format checks.
     */
    public static Restored read(
        final Path file, final byte[] bytes, final SubscriptionSettings settings, final EpochClock clock,
        final DeadLetterHandler deadLetters)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
        if (bytes.length < HEADER_LENGTH + CRC_LENGTH)
        {
            throw new CorruptStateException("snapshot " + file + " is " + bytes.length + " bytes, shorter than " +
                "its header");
        }
        final CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - CRC_LENGTH);
        if ((int)crc.getValue() != buffer.getInt(bytes.length - CRC_LENGTH, ORDER) ||
            buffer.getInt(MAGIC_OFFSET, ORDER) != MAGIC || buffer.getInt(VERSION_OFFSET, ORDER) != VERSION)
        {
            throw new CorruptStateException("snapshot " + file + " fails its checksum or has an unknown format");
        }
        try
        {
            return decode(buffer, settings, clock, deadLetters);
        }
        catch (final IndexOutOfBoundsException ex)
        {
            throw new CorruptStateException("snapshot " + file + " ends inside a section", ex);
        }
    }

    private static int encode(
        final ExpandableDirectByteBuffer buffer, final SubscriptionPartitionState state, final long generation)
    {
        final OffsetWindow window = state.window();
        final long floor = window.floor();
        final long cursor = state.readCursor();
        buffer.putInt(MAGIC_OFFSET, MAGIC, ORDER);
        buffer.putInt(VERSION_OFFSET, VERSION, ORDER);
        buffer.putLong(GENERATION_OFFSET, generation, ORDER);
        buffer.putInt(PARTITION_OFFSET, state.partition(), ORDER);
        buffer.putInt(PARTITION_OFFSET + Integer.BYTES, 0, ORDER);
        buffer.putLong(FLOOR_OFFSET, floor, ORDER);
        buffer.putLong(CURSOR_OFFSET, cursor, ORDER);
        final long settledEnd = Math.max(cursor, state.expiredAheadEnd());
        buffer.putLong(SETTLED_END_OFFSET, settledEnd, ORDER);
        int position = encodeWordRuns(buffer, HEADER_LENGTH, window, floor, settledEnd, false);
        position = encodeWordRuns(buffer, position, window, floor, settledEnd, true);
        position = encodeCountRuns(buffer, position, window, floor, cursor);
        position = encodeDelays(buffer, position, state);
        position = encodeFirstDeliveries(buffer, position, state.firstDeliveries(), floor);
        final CRC32C crc = new CRC32C();
        final ByteBuffer bytes = buffer.byteBuffer();
        bytes.limit(position).position(0);
        crc.update(bytes);
        bytes.clear();
        buffer.putInt(position, (int)crc.getValue(), ORDER);
        return position + CRC_LENGTH;
    }

    private static int encodeWordRuns(
        final ExpandableDirectByteBuffer buffer, final int start, final OffsetWindow window, final long floor,
        final long cursor, final boolean dead)
    {
        int position = start + Integer.BYTES;
        int runs = 0;
        long runWord = 0;
        int repeat = 0;
        for (long offset = floor; offset < cursor; offset += 64)
        {
            long word = dead ? window.deadBits(offset) : window.settledBits(offset);
            if (cursor - offset < 64)
            {
                word &= (1L << (cursor - offset)) - 1;
            }
            if (repeat > 0 && word == runWord && repeat < Integer.MAX_VALUE)
            {
                repeat++;
                continue;
            }
            if (repeat > 0)
            {
                position = putWordRun(buffer, position, runWord, repeat);
                runs++;
            }
            runWord = word;
            repeat = 1;
        }
        if (repeat > 0)
        {
            position = putWordRun(buffer, position, runWord, repeat);
            runs++;
        }
        buffer.putInt(start, runs, ORDER);
        return position;
    }

    private static int putWordRun(final ExpandableDirectByteBuffer buffer, final int at, final long word,
        final int repeat)
    {
        buffer.putLong(at, word, ORDER);
        buffer.putInt(at + Long.BYTES, repeat, ORDER);
        return at + WORD_RUN_LENGTH;
    }

    private static int encodeCountRuns(
        final ExpandableDirectByteBuffer buffer, final int start, final OffsetWindow window, final long floor,
        final long cursor)
    {
        int position = start + Integer.BYTES;
        int runs = 0;
        int runCount = -1;
        int repeat = 0;
        for (long offset = floor; offset < cursor; offset++)
        {
            if (window.isSettled(offset))
            {
                continue;
            }
            final int count = window.deliveryCount(offset);
            if (count == runCount && repeat < Integer.MAX_VALUE)
            {
                repeat++;
                continue;
            }
            if (repeat > 0)
            {
                buffer.putInt(position, runCount, ORDER);
                buffer.putInt(position + Integer.BYTES, repeat, ORDER);
                position += COUNT_RUN_LENGTH;
                runs++;
            }
            runCount = count;
            repeat = 1;
        }
        if (repeat > 0)
        {
            buffer.putInt(position, runCount, ORDER);
            buffer.putInt(position + Integer.BYTES, repeat, ORDER);
            position += COUNT_RUN_LENGTH;
            runs++;
        }
        buffer.putInt(start, runs, ORDER);
        return position;
    }

    private static int encodeDelays(
        final ExpandableDirectByteBuffer buffer, final int start, final SubscriptionPartitionState state)
    {
        final InFlightTable records = state.records();
        final long floor = state.ackFloor();
        int position = start + Integer.BYTES;
        int delayed = 0;
        for (int slot = 0, slots = records.tableSlots(); slot < slots; slot++)
        {
            for (int i = 0, size = records.hasPage(slot) ? InFlightTable.pageSize() : 0; i < size; i++)
            {
                final int record = records.recordInSlot(slot, i);
                if (record == InFlightTable.NIL || records.consumer(record) != InFlightTable.DELAYED)
                {
                    continue;
                }
                buffer.putLong(position, records.offset(record, floor), ORDER);
                buffer.putLong(position + Long.BYTES, records.deadline(record), ORDER);
                position += DELAYED_LENGTH;
                delayed++;
            }
        }
        buffer.putInt(start, delayed, ORDER);
        return position;
    }

    private static int encodeFirstDeliveries(
        final ExpandableDirectByteBuffer buffer, final int start, final FirstDeliveryTimes times, final long floor)
    {
        int position = start + Integer.BYTES;
        int runs = 0;
        for (int i = 0; i < times.runCount(); i++)
        {
            final long from = Math.max(floor, times.runStart(i));
            final long end = times.runStart(i) + times.runLength(i);
            if (from < end)
            {
                position = putFirstDeliveryRun(buffer, position, from, (int)(end - from), times.runTime(i));
                runs++;
            }
        }
        final Long2LongHashMap.EntryIterator single = times.outOfOrder().entrySet().iterator();
        while (single.hasNext())
        {
            single.next();
            if (single.getLongKey() >= floor)
            {
                position = putFirstDeliveryRun(buffer, position, single.getLongKey(), 1, single.getLongValue());
                runs++;
            }
        }
        buffer.putInt(start, runs, ORDER);
        return position;
    }

    private static int putFirstDeliveryRun(
        final ExpandableDirectByteBuffer buffer, final int at, final long from, final int length, final long time)
    {
        buffer.putLong(at, from, ORDER);
        buffer.putInt(at + Long.BYTES, length, ORDER);
        buffer.putLong(at + Long.BYTES + Integer.BYTES, time, ORDER);
        return at + FIRST_DELIVERY_RUN_LENGTH;
    }

    private static Restored decode(
        final UnsafeBuffer buffer, final SubscriptionSettings settings, final EpochClock clock,
        final DeadLetterHandler deadLetters)
    {
        final long generation = buffer.getLong(GENERATION_OFFSET, ORDER);
        final int partition = buffer.getInt(PARTITION_OFFSET, ORDER);
        final long floor = buffer.getLong(FLOOR_OFFSET, ORDER);
        final long cursor = buffer.getLong(CURSOR_OFFSET, ORDER);
        final long settledEnd = buffer.getLong(SETTLED_END_OFFSET, ORDER);
        if (floor < 0 || cursor < floor || settledEnd < cursor || settledEnd - floor > OffsetWindow.MAX_CAPACITY ||
            partition < 0)
        {
            throw new CorruptStateException("snapshot has partition " + partition + ", floor " + floor +
                ", cursor " + cursor + " and settled end " + settledEnd + ", which no state can have");
        }
        final SubscriptionPartitionState state = new SubscriptionPartitionState(partition, settings, clock, floor,
            deadLetters, StateLog.NONE);
        state.restore().cursor(cursor);
        int position = decodeWordRuns(buffer, HEADER_LENGTH, state, floor, cursor, settledEnd, false);
        position = decodeWordRuns(buffer, position, state, floor, cursor, settledEnd, true);
        position = decodeCountRuns(buffer, position, state, floor, cursor);
        final int delayed = buffer.getInt(position, ORDER);
        position += Integer.BYTES;
        final Long2LongHashMap delays = new Long2LongHashMap(Long.MIN_VALUE);
        for (int i = 0; i < delayed; i++, position += DELAYED_LENGTH)
        {
            delays.put(buffer.getLong(position, ORDER), buffer.getLong(position + Long.BYTES, ORDER));
        }
        final int runs = buffer.getInt(position, ORDER);
        position += Integer.BYTES;
        for (int i = 0; i < runs; i++, position += FIRST_DELIVERY_RUN_LENGTH)
        {
            state.firstDeliveries().restore(buffer.getLong(position, ORDER),
                buffer.getInt(position + Long.BYTES, ORDER),
                buffer.getLong(position + Long.BYTES + Integer.BYTES, ORDER));
        }
        if (position != buffer.capacity() - CRC_LENGTH)
        {
            throw new CorruptStateException("snapshot has " + (buffer.capacity() - CRC_LENGTH - position) +
                " bytes after its last section");
        }
        return new Restored(state, generation, delays);
    }

    private static int decodeWordRuns(
        final UnsafeBuffer buffer, final int start, final SubscriptionPartitionState state, final long floor,
        final long cursor, final long settledEnd, final boolean dead)
    {
        final int runs = buffer.getInt(start, ORDER);
        int position = start + Integer.BYTES;
        long offset = floor;
        for (int run = 0; run < runs; run++, position += WORD_RUN_LENGTH)
        {
            final long word = buffer.getLong(position, ORDER);
            final int repeat = buffer.getInt(position + Long.BYTES, ORDER);
            for (int r = 0; r < repeat; r++, offset += 64)
            {
                for (long bits = word; bits != 0; bits &= bits - 1)
                {
                    final long settledOffset = offset + Long.numberOfTrailingZeros(bits);
                    if (settledOffset >= settledEnd)
                    {
                        throw new CorruptStateException("snapshot marks offset " + settledOffset +
                            " settled, past its settled end " + settledEnd);
                    }
                    if (settledOffset >= cursor)
                    {
                        StateRestorer.restoreExpiredAhead(state, settledOffset);
                    }
                    else
                    {
                        StateRestorer.restoreSettled(state, settledOffset, dead);
                    }
                }
            }
        }
        return position;
    }

    private static int decodeCountRuns(
        final UnsafeBuffer buffer, final int start, final SubscriptionPartitionState state, final long floor,
        final long cursor)
    {
        final OffsetWindow window = state.window();
        final int runs = buffer.getInt(start, ORDER);
        int position = start + Integer.BYTES;
        long offset = floor;
        for (int run = 0; run < runs; run++, position += COUNT_RUN_LENGTH)
        {
            final int count = buffer.getInt(position, ORDER);
            for (int repeat = buffer.getInt(position + Integer.BYTES, ORDER); repeat > 0; repeat--, offset++)
            {
                while (offset < cursor && window.isSettled(offset))
                {
                    offset++;
                }
                if (offset >= cursor)
                {
                    throw new CorruptStateException("snapshot has more delivery counts than unsettled offsets " +
                        "below its read cursor " + cursor);
                }
                StateRestorer.restoreDelivery(state, offset, count);
            }
        }
        return position;
    }
}
