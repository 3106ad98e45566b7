package io.spool.wire.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.spool.log.ConfirmListener;
import io.spool.log.LogProducer;
import io.spool.log.PartitionLog;
import io.spool.log.RecordBatch;
import io.spool.log.RecordDescriptor;
import io.spool.log.RecordTooLargeException;
import io.spool.log.SpoolException;
import io.spool.stream.Topic;
import io.spool.wire.ErrorCode;
import io.spool.wire.ErrorDescriptor;
import io.spool.wire.OpCode;
import io.spool.wire.ProtocolException;
import io.spool.wire.PublishDescriptor;
import org.agrona.BitUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

import static io.spool.wire.PublishDescriptor.*;

/**
 * The PUBLISH operation of one connection: hands the records of each frame to the log's ingest pipeline
 * and answers once all records of the frame are confirmed.
 * <p>
 * The records of a frame go to the pipeline as one batch: one claim of ring slots, and either all are published or
 * none (the batch is checked whole first).
 * <p>
 * Design note: confirms arrive on the thread of the log's pipeline, one log always on the same thread. Each log
 * this connection publishes to has a {@link LogConfirms} listener with its own one-to-one ring buffer (no lock, no
 * allocation, no atomic instruction per confirm); the connection's event loop drains the rings, so responses are
 * written by the channel's own thread, many per flush. Record {@code i} of a frame of {@code n} records gets the
 * correlation {@code frameNumber << INDEX_BITS | (LAST - n + 1 + i)}: the frame's last record carries {@link #LAST}
 * in its low bits, and only its confirm (or a failure) schedules a drain, which sees every confirm of the frame
 * written before it. Counting unconfirmed records here is what lets the connection stop reading when the client
 * outruns the log.
 * <p>
 * Not thread-safe: used on the connection's event loop; the listeners are called on pipeline threads.
 */
final class PublishSession
{
    static final int INDEX_BITS = 28;
    private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;
    /** The low bits of the last record of a frame; a frame holds at most this many records. */
    static final long LAST = INDEX_MASK;
    private static final int CONFIRM_MESSAGE = 1;
    private static final int CONFIRM_LENGTH = 2 * Long.BYTES;
    /** A ring message is its 8-byte header and payload, aligned to 8. */
    private static final int RING_BYTES_PER_CONFIRM = 8 + CONFIRM_LENGTH;
    /** Confirms a log's ring holds before the rest go to the (allocating) overflow queue. */
    private static final int RING_CONFIRMS = 16 * 1024;

    private final Channel channel;
    private final ReadGate gate;
    private final LogProducer producer;
    private final TopicCache topics;
    private final int maxUnconfirmed;
    private final Map<PartitionLog, LogConfirms> confirmsByLog = new IdentityHashMap<>();
    private final ArrayList<LogConfirms> allConfirms = new ArrayList<>();
    private final int ringCapacity;
    private final ConcurrentLinkedQueue<long[]> overflowConfirms = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Failure> failures = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean drainScheduled = new AtomicBoolean();
    private final Runnable drainTask = this::drain;
    private final MessageHandler confirmHandler = this::onConfirmMessage;
    private final Long2ObjectHashMap<PendingPublish> pending = new Long2ObjectHashMap<>();
    private final ArrayDeque<PendingPublish> spare = new ArrayDeque<>();
    private final UnsafeBuffer key = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer headers = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer value = new UnsafeBuffer(0, 0);
    private final RecordBatch batch = new RecordBatch();
    private long nextFrameNumber;
    private int unconfirmed;
    private boolean wroteResponse;

    PublishSession(final Channel channel, final ReadGate gate, final LogProducer producer, final TopicCache topics,
        final int maxUnconfirmed)
    {
        this.channel = channel;
        this.gate = gate;
        this.producer = producer;
        this.topics = topics;
        this.maxUnconfirmed = maxUnconfirmed;
        this.ringCapacity = BitUtil.findNextPositivePowerOfTwo(
            Math.max(1024, Math.min(maxUnconfirmed, RING_CONFIRMS) * RING_BYTES_PER_CONFIRM));
    }

    /**
     * Publishes the records of a PUBLISH body (reader index after the frame header). Nothing is published unless
     * the whole body is well formed and every record fits the log.
     */
    void publish(final long correlationId, final ByteBuf body)
    {
        final Topic topic = topics.read(body);
        final int partition = body.readIntLE();
        final int count = body.readIntLE();
        if (count < 1 || count > LAST)
        {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "record count must be at least 1, was " + count);
        }
        final PartitionLog log = topic.partition(partition);
        validate(body, count, log);

        batch.clear();
        int index = body.readerIndex();
        for (int i = 0; i < count; i++)
        {
            final int keyLength = body.getIntLE(index + RECORD_KEY_LENGTH_OFFSET);
            final int headersLength = body.getIntLE(index + RECORD_HEADERS_LENGTH_OFFSET);
            final int valueLength = body.getIntLE(index + RECORD_VALUE_LENGTH_OFFSET);
            final int keyIndex = index + RECORD_HEADER_LENGTH;
            final int headersIndex = keyIndex + Math.max(0, keyLength);
            final int valueIndex = headersIndex + headersLength;
            FrameBytes.wrap(key, body, keyIndex, Math.max(0, keyLength));
            FrameBytes.wrap(headers, body, headersIndex, headersLength);
            FrameBytes.wrap(value, body, valueIndex, Math.max(0, valueLength));
            batch.add(body.getLongLE(index + RECORD_TIMESTAMP_OFFSET), body.getIntLE(index + RECORD_ATTRIBUTES_OFFSET),
                key, 0, keyLength, headers, 0, headersLength, value, 0, valueLength);
            index = valueIndex + Math.max(0, valueLength);
        }
        final long frameNumber = nextFrameNumber;
        producer.publishBatch(log, batch, confirmsFor(log), frameNumber << INDEX_BITS | (LAST - count + 1));
        nextFrameNumber++;
        final PendingPublish publish = spare.isEmpty() ? new PendingPublish() : spare.pop();
        publish.reset(correlationId, count);
        pending.put(frameNumber, publish);
        unconfirmed += publish.expected;
        if (unconfirmed >= maxUnconfirmed && !gate.isConfirmsBehind())
        {
            gate.confirmsBehind(true);
        }
    }

    private static void validate(final ByteBuf body, final int count, final PartitionLog log)
    {
        final int maxRecordBytes = log.config().maxRecordBytes();
        int index = body.readerIndex();
        final int end = body.writerIndex();
        for (int i = 0; i < count; i++)
        {
            if (end - index < RECORD_HEADER_LENGTH)
            {
                throw new IndexOutOfBoundsException("record " + i + " of " + count + " runs past the frame");
            }
            final int keyLength = body.getIntLE(index + RECORD_KEY_LENGTH_OFFSET);
            final int headersLength = body.getIntLE(index + RECORD_HEADERS_LENGTH_OFFSET);
            final int valueLength = body.getIntLE(index + RECORD_VALUE_LENGTH_OFFSET);
            if (keyLength < -1 || headersLength < 0 || valueLength < -1)
            {
                throw new IndexOutOfBoundsException("record " + i + " has negative lengths: key " + keyLength +
                    ", headers " + headersLength + ", value " + valueLength);
            }
            final long bodyLength = (long)Math.max(0, keyLength) + headersLength + Math.max(0, valueLength);
            if (bodyLength > end - index - RECORD_HEADER_LENGTH)
            {
                throw new IndexOutOfBoundsException("record " + i + " of " + count + " runs past the frame");
            }
            final long frameLength = RecordDescriptor.frameLengthExact(keyLength, headersLength, valueLength);
            if (frameLength > maxRecordBytes)
            {
                throw new RecordTooLargeException(log.name(), (int)frameLength, maxRecordBytes);
            }
            index += RECORD_HEADER_LENGTH + (int)bodyLength;
        }
        if (index != end)
        {
            throw new IndexOutOfBoundsException((end - index) + " bytes left after " + count + " records");
        }
    }

    private LogConfirms confirmsFor(final PartitionLog log)
    {
        LogConfirms confirms = confirmsByLog.get(log);
        if (confirms == null)
        {
            confirms = new LogConfirms(new OneToOneRingBuffer(new UnsafeBuffer(
                ByteBuffer.allocateDirect(ringCapacity + RingBufferDescriptor.TRAILER_LENGTH))));
            confirmsByLog.put(log, confirms);
            allConfirms.add(confirms);
        }
        return confirms;
    }

    private void scheduleDrain()
    {
        if (drainScheduled.compareAndSet(false, true))
        {
            channel.eventLoop().execute(drainTask);
        }
    }

    /** Event loop: applies every confirm and failure that arrived, then writes the completed responses at once. */
    private void drain()
    {
        drainScheduled.set(false);
        for (int i = 0; i < allConfirms.size(); i++)
        {
            // One read stops at the end of the ring's buffer, having maybe consumed only padding there; the second
            // takes what wrapped around to the start.
            final OneToOneRingBuffer ring = allConfirms.get(i).ring;
            ring.read(confirmHandler, Integer.MAX_VALUE);
            ring.read(confirmHandler, Integer.MAX_VALUE);
        }
        long[] overflow;
        while ((overflow = overflowConfirms.poll()) != null)
        {
            confirmed(overflow[0], overflow[1], null);
        }
        Failure failure;
        while ((failure = failures.poll()) != null)
        {
            confirmed(failure.correlation, -1, failure.error);
        }
        if (wroteResponse)
        {
            wroteResponse = false;
            channel.flush();
        }
        if (gate.isConfirmsBehind() && unconfirmed <= maxUnconfirmed / 2)
        {
            gate.confirmsBehind(false);
        }
    }

    private void onConfirmMessage(final int msgTypeId, final MutableDirectBuffer buffer, final int index,
        final int length)
    {
        confirmed(buffer.getLong(index), buffer.getLong(index + Long.BYTES), null);
    }

    private void confirmed(final long correlation, final long offset, final SpoolException error)
    {
        final long frameNumber = correlation >>> INDEX_BITS;
        final PendingPublish publish = pending.get(frameNumber);
        if (publish == null)
        {
            return;
        }
        unconfirmed--;
        if (error != null)
        {
            publish.fail(error);
        }
        else
        {
            publish.offsets[(int)((correlation & INDEX_MASK) - (LAST - publish.expected + 1))] = offset;
        }
        publish.confirmed++;
        if (publish.isComplete())
        {
            pending.remove(frameNumber);
            respond(publish);
            spare.push(publish);
        }
    }

    private void respond(final PendingPublish publish)
    {
        final ByteBuf out;
        if (publish.error != null)
        {
            out = channel.alloc().ioBuffer(256);
            ErrorDescriptor.encode(out, OpCode.PUBLISH, publish.correlationId, publish.error);
        }
        else
        {
            out = channel.alloc().ioBuffer(PublishDescriptor.responseLength(publish.expected));
            final int start = PublishDescriptor.beginResponse(out, publish.correlationId, publish.expected);
            for (int i = 0; i < publish.expected; i++)
            {
                out.writeLongLE(publish.offsets[i]);
            }
            io.spool.wire.FrameDescriptor.finish(out, start);
        }
        channel.write(out, channel.voidPromise());
        wroteResponse = true;
    }

    /**
     * The confirms of one log for this connection. Only that log's pipeline thread calls it, so its ring has one
     * writer. Thread-safe for that one caller and the event loop.
     */
    private final class LogConfirms implements ConfirmListener
    {
        final OneToOneRingBuffer ring;

        LogConfirms(final OneToOneRingBuffer ring)
        {
            this.ring = ring;
        }

        @Override
        public void onConfirmed(final long correlation, final long offset)
        {
            final int index = ring.tryClaim(CONFIRM_MESSAGE, CONFIRM_LENGTH);
            if (index > 0)
            {
                final MutableDirectBuffer buffer = ring.buffer();
                buffer.putLong(index, correlation);
                buffer.putLong(index + Long.BYTES, offset);
                ring.commit(index);
                if ((correlation & INDEX_MASK) == LAST)
                {
                    scheduleDrain();
                }
            }
            else
            {
                overflowConfirms.add(new long[]{correlation, offset});
                scheduleDrain();
            }
        }

        @Override
        public void onFailed(final long correlation, final SpoolException error)
        {
            failures.add(new Failure(correlation, error));
            scheduleDrain();
        }
    }

    /** A failed record, carried from the pipeline thread to the event loop; failures are rare, so it allocates. */
    private record Failure(long correlation, SpoolException error)
    {
    }
}
