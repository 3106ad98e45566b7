package io.spool.wire.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.spool.api.log.RecordView;
import io.spool.log.CommitListener;
import io.spool.log.LogReader;
import io.spool.log.PartitionLog;
import io.spool.log.RecordHandler;
import io.spool.stream.Topic;
import io.spool.wire.ErrorDescriptor;
import io.spool.wire.FetchDescriptor;
import io.spool.wire.Fields;
import io.spool.wire.FrameDescriptor;
import io.spool.wire.OpCode;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.EpochClock;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.spool.api.log.RecordDescriptor.FRAME_LENGTH_OFFSET;
import static io.spool.api.log.RecordDescriptor.HEADER_LENGTH;
import static io.spool.api.log.RecordDescriptor.OFFSET_OFFSET;
import static io.spool.api.log.RecordDescriptor.align;

/**
 * The FETCH operation of one connection: answers with the record frames as they lie in the mapped segment, and holds
 * fetches at the end of a log until a commit or their wait runs out.
 * <p>
 * Design note: a response's records are one slice of one segment, wrapped (not copied) in a Netty buffer. The
 * {@link LogReader} that found the first record keeps that segment mapped; it is leased to the write and goes back
 * to the connection's idle readers only when the write completed, so a segment is never unmapped under the socket.
 * The reader finds the first record; the next frames are walked here, inside that segment, up to the committed end
 * read after the first record was found: a frame whose offset field is the next expected offset and below that end
 * was committed before the (volatile) read of the end, so all its bytes are visible; an uncommitted frame reads as
 * zeros or as an offset at or above the end, and stops the walk.
 * <p>
 * Design note: a fetch's wait is measured on the engine's clock, like every other timeout in Spool (a RECEIVE's wait
 * included), so a test or lab that moves the clock by hand moves long polls too. The session owns one Netty timer for
 * all its parked fetches, due when the earliest wait would end if the engine clock keeps wall time, and at the most
 * {@link #CLOCK_CHECK_MILLIS} away; when it fires, or before any frame the connection sends is handled
 * ({@link #expireDue()}), the parked fetches whose deadline the engine clock has passed are answered. A clock moved
 * by hand is therefore seen within that bound, or at once by the connection's next frame.
 * <p>
 * Not thread-safe: used on the connection's event loop (commits only schedule a wake-up there).
 */
final class FetchSession implements CommitListener
{
    /** How long a clock moved by hand may go unnoticed while fetches are parked. */
    static final long CLOCK_CHECK_MILLIS = 100;

    private final Channel channel;
    private final TopicCache topics;
    private final EpochClock clock;
    private final HeldPartitions held;
    /** The logs {@link #held} said for good this node holds, so that a fetch of them asks no more. */
    private final Map<PartitionLog, Boolean> heldLogs = new IdentityHashMap<>();
    private final Map<PartitionLog, ArrayDeque<LogReader>> idleReaders = new IdentityHashMap<>();
    private final ArrayDeque<Lease> spareLeases = new ArrayDeque<>();
    private final List<WaitingFetch> waiting = new ArrayList<>();
    private final Map<PartitionLog, Integer> watchedLogs = new IdentityHashMap<>();
    private final FirstRecord first = new FirstRecord();
    private final AtomicBoolean wakeScheduled = new AtomicBoolean();
    private final Runnable wakeTask = this::wakeWaiting;
    private final Runnable timerTask = this::onTimer;
    private ScheduledFuture<?> timer;
    private long timerDueNanos;
    private boolean closed;

    FetchSession(final Channel channel, final TopicCache topics, final EpochClock clock, final HeldPartitions held)
    {
        this.channel = channel;
        this.topics = topics;
        this.clock = clock;
        this.held = held;
    }

    /** Serves a FETCH body (reader index after the frame header) now, or parks it until data or its wait ends. */
    void fetch(final long correlationId, final ByteBuf body)
    {
        final Topic topic = topics.read(body);
        final int partition = body.readIntLE();
        final long offset = body.readLongLE();
        final int maxRecords = body.readIntLE();
        final int maxBytes = body.readIntLE();
        final int maxWaitMillis = body.readIntLE();
        Fields.expectEnd(body);
        if (maxRecords < 1 || maxBytes < 1 || maxWaitMillis < 0)
        {
            throw new IllegalArgumentException("a fetch needs maxRecords >= 1, maxBytes >= 1 and maxWaitMillis >= 0," +
                " was " + maxRecords + ", " + maxBytes + ", " + maxWaitMillis);
        }
        final PartitionLog log = topic.partition(partition);
        if (!heldLogs.containsKey(log) && held.requireHeld(topic.name(), partition))
        {
            heldLogs.put(log, Boolean.TRUE);
        }
        if (offset == log.endOffset() && maxWaitMillis > 0)
        {
            park(new WaitingFetch(correlationId, log, partition, offset, maxRecords, maxBytes,
                clock.time() + maxWaitMillis));
            return;
        }
        serve(correlationId, log, partition, offset, maxRecords, maxBytes);
    }

    private void serve(final long correlationId, final PartitionLog log, final int partition, final long offset,
        final int maxRecords, final int maxBytes)
    {
        final LogReader reader = takeReader(log);
        final int found;
        try
        {
            reader.seek(offset);
            first.clear();
            found = reader.poll(first, 1, maxBytes);
        }
        catch (final RuntimeException ex)
        {
            giveBack(log, reader);
            throw ex;
        }
        if (found == 0)
        {
            giveBack(log, reader);
            writeHeader(correlationId, partition, log, 0, 0, true);
            return;
        }
        final long end = log.endOffset();
        final DirectBuffer segment = first.buffer;
        final int limit = segment.capacity() - HEADER_LENGTH;
        int position = first.frameOffset + align(first.frameLength);
        int bytes = align(first.frameLength);
        int count = 1;
        // The first record is past the offset asked for when that offset lies in a hole of the log.
        long expected = first.offset + 1;
        while (count < maxRecords && expected < end && position <= limit)
        {
            final int frameLength = segment.getInt(position + FRAME_LENGTH_OFFSET);
            if (frameLength <= 0 || segment.getLong(position + OFFSET_OFFSET) != expected ||
                (long)bytes + align(frameLength) > maxBytes)
            {
                break;
            }
            position += align(frameLength);
            bytes += align(frameLength);
            count++;
            expected++;
        }
        final ByteBuf records;
        try
        {
            records = wrap(segment, first.frameOffset, bytes);
        }
        catch (final RuntimeException ex)
        {
            giveBack(log, reader);
            throw ex;
        }
        writeHeader(correlationId, partition, log, count, bytes, false);
        channel.writeAndFlush(records).addListener(lease(log, reader));
    }

    /** A Netty buffer over the segment's own memory: no copy, and freeing it frees nothing. */
    private static ByteBuf wrap(final DirectBuffer segment, final int index, final int length)
    {
        final java.nio.ByteBuffer mapped = segment.byteBuffer();
        if (mapped != null)
        {
            return Unpooled.wrappedBuffer(mapped.slice(segment.wrapAdjustment() + index, length));
        }
        return Unpooled.wrappedBuffer(segment.byteArray(), segment.wrapAdjustment() + index, length);
    }

    private void writeHeader(final long correlationId, final int partition, final PartitionLog log, final int count,
        final int bytes, final boolean flush)
    {
        final ByteBuf header = channel.alloc().ioBuffer(FrameDescriptor.HEADER_LENGTH +
            FetchDescriptor.RESPONSE_FIXED_LENGTH);
        FetchDescriptor.encodeResponseHeader(header, correlationId, partition, log.startOffset(), log.endOffset(),
            count, bytes);
        if (flush)
        {
            channel.writeAndFlush(header, channel.voidPromise());
        }
        else
        {
            channel.write(header, channel.voidPromise());
        }
    }

    private LogReader takeReader(final PartitionLog log)
    {
        final ArrayDeque<LogReader> idle = idleReaders.get(log);
        return idle == null || idle.isEmpty() ? log.newReader() : idle.pop();
    }

    /**
     * Releases the reader's segment (an idle connection must not keep old segments mapped or hold back their
     * deletion) and keeps the reader for the next fetch of that log.
     */
    private void giveBack(final PartitionLog log, final LogReader reader)
    {
        reader.close();
        if (!closed && !log.isClosed())
        {
            idleReaders.computeIfAbsent(log, ignored -> new ArrayDeque<>()).push(reader);
        }
    }

    private Lease lease(final PartitionLog log, final LogReader reader)
    {
        final Lease lease = spareLeases.isEmpty() ? new Lease() : spareLeases.pop();
        lease.log = log;
        lease.reader = reader;
        return lease;
    }

    private void park(final WaitingFetch fetch)
    {
        waiting.add(fetch);
        if (watchedLogs.merge(fetch.log, 1, Integer::sum) == 1)
        {
            fetch.log.addCommitListener(this);
        }
        armTimer();
        if (fetch.log.endOffset() > fetch.offset)
        {
            wakeWaiting();
        }
    }

    /** Answers every parked fetch whose wait the engine clock has passed; cheap when none is parked. */
    void expireDue()
    {
        if (waiting.isEmpty())
        {
            return;
        }
        final long now = clock.time();
        for (int i = waiting.size() - 1; i >= 0; i--)
        {
            final WaitingFetch fetch = waiting.get(i);
            if (fetch.deadline <= now)
            {
                unpark(i);
                answer(fetch);
            }
        }
    }

    private void onTimer()
    {
        timer = null;
        expireDue();
        armTimer();
    }

    /** Keeps the timer due by the earliest parked deadline (see the design note), or cancels it when none waits. */
    private void armTimer()
    {
        if (waiting.isEmpty() || closed)
        {
            cancelTimer();
            return;
        }
        long earliest = Long.MAX_VALUE;
        for (int i = 0; i < waiting.size(); i++)
        {
            earliest = Math.min(earliest, waiting.get(i).deadline);
        }
        final long delayMillis = Math.max(0, Math.min(earliest - clock.time(), CLOCK_CHECK_MILLIS));
        final long dueNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMillis);
        if (timer != null && timerDueNanos - dueNanos <= 0)
        {
            return;
        }
        cancelTimer();
        timerDueNanos = dueNanos;
        timer = channel.eventLoop().schedule(timerTask, delayMillis, TimeUnit.MILLISECONDS);
    }

    private void cancelTimer()
    {
        if (timer != null)
        {
            timer.cancel(false);
            timer = null;
        }
    }

    @Override
    public void onCommitted(final PartitionLog log, final long endOffset)
    {
        if (wakeScheduled.compareAndSet(false, true))
        {
            channel.eventLoop().execute(wakeTask);
        }
    }

    private void wakeWaiting()
    {
        wakeScheduled.set(false);
        for (int i = waiting.size() - 1; i >= 0; i--)
        {
            final WaitingFetch fetch = waiting.get(i);
            if (fetch.log.endOffset() > fetch.offset || fetch.log.isClosed())
            {
                unpark(i);
                answer(fetch);
            }
        }
        if (waiting.isEmpty())
        {
            cancelTimer();
        }
    }

    private void unpark(final int index)
    {
        final WaitingFetch fetch = waiting.remove(index);
        if (watchedLogs.merge(fetch.log, -1, Integer::sum) == 0)
        {
            watchedLogs.remove(fetch.log);
            fetch.log.removeCommitListener(this);
        }
    }

    private void answer(final WaitingFetch fetch)
    {
        try
        {
            serve(fetch.correlationId, fetch.log, fetch.partition, fetch.offset, fetch.maxRecords, fetch.maxBytes);
        }
        catch (final RuntimeException ex)
        {
            final ByteBuf out = channel.alloc().ioBuffer(256);
            ErrorDescriptor.encode(out, OpCode.FETCH, fetch.correlationId, ex);
            channel.writeAndFlush(out, channel.voidPromise());
        }
    }

    /** Drops every reader and listener; readers still leased to a write release their segment when it ends. */
    void close()
    {
        closed = true;
        cancelTimer();
        waiting.clear();
        for (final PartitionLog log : watchedLogs.keySet())
        {
            log.removeCommitListener(this);
        }
        watchedLogs.clear();
        idleReaders.clear();
    }

    /** Remembers where the first record of a fetch lies. */
    private static final class FirstRecord implements RecordHandler
    {
        DirectBuffer buffer;
        long offset;
        int frameOffset;
        int frameLength;

        void clear()
        {
            buffer = null;
        }

        @Override
        public void onRecord(final RecordView record)
        {
            buffer = record.buffer();
            offset = record.offset();
            frameOffset = record.frameOffset();
            frameLength = record.frameLength();
        }
    }

    /** A reader lent to a response write; given back when the write completes (or fails). */
    private final class Lease implements ChannelFutureListener
    {
        PartitionLog log;
        LogReader reader;

        @Override
        public void operationComplete(final ChannelFuture future)
        {
            giveBack(log, reader);
            log = null;
            reader = null;
            spareLeases.push(this);
        }
    }

    /** A fetch at the end of its log, parked until a commit or its timeout. */
    private static final class WaitingFetch
    {
        final long correlationId;
        final PartitionLog log;
        final int partition;
        final long offset;
        final int maxRecords;
        final int maxBytes;
        /** On the engine clock. */
        final long deadline;

        WaitingFetch(final long correlationId, final PartitionLog log, final int partition, final long offset,
            final int maxRecords, final int maxBytes, final long deadline)
        {
            this.deadline = deadline;
            this.correlationId = correlationId;
            this.log = log;
            this.partition = partition;
            this.offset = offset;
            this.maxRecords = maxRecords;
            this.maxBytes = maxBytes;
        }
    }
}
