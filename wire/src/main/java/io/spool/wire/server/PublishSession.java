package io.spool.wire.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.spool.api.log.HeadersCodec;
import io.spool.api.queue.QueueFullException;
import io.spool.api.InvalidRequestException;
import io.spool.api.stream.ProducerRecord;
import io.spool.log.LogProducer;
import io.spool.log.PartitionLog;
import io.spool.log.RecordBatch;
import io.spool.queue.Router;
import io.spool.stream.Topic;
import io.spool.wire.ErrorCode;
import io.spool.wire.ErrorDescriptor;
import io.spool.wire.FrameDescriptor;
import io.spool.wire.OpCode;
import io.spool.wire.ProtocolException;
import io.spool.wire.PublishDescriptor;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicReference;

import static io.spool.wire.PublishDescriptor.RECORD_ATTRIBUTES_OFFSET;
import static io.spool.wire.PublishDescriptor.RECORD_HEADERS_LENGTH_OFFSET;
import static io.spool.wire.PublishDescriptor.RECORD_HEADER_LENGTH;
import static io.spool.wire.PublishDescriptor.RECORD_KEY_LENGTH_OFFSET;
import static io.spool.wire.PublishDescriptor.RECORD_TIMESTAMP_OFFSET;
import static io.spool.wire.PublishDescriptor.RECORD_VALUE_LENGTH_OFFSET;

/**
 * The PUBLISH operation of one connection: hands the records of each frame to the log's ingest pipeline
 * and answers once all records of the frame are confirmed.
 * <p>
 * The records of a frame go to the pipeline as one batch: one claim of ring slots, and either all are published or
 * none (the frame is read whole, and the producer checks every record, before anything is claimed).
 * <p>
 * The subscriptions' overflow limits hold here as for the embedded {@code SpoolProducer}: a frame for a topic one of
 * whose subscriptions is full under a reject policy is refused whole with {@link QueueFullException}, and nothing
 * of it is stored. Each frame pays one look at the topic's reject flags ({@link io.spool.queue.PublishGate#refuses}); only a
 * refused frame is decoded into {@link ProducerRecord}s, for the {@link io.spool.queue.PublishGate} to refuse and, under
 * reject-publish-dlx, dead-letter.
 * <p>
 * Design note: confirms arrive on the thread of the log's pipeline, in offset order. Each frame is its own
 * {@link PendingPublish} listener and its records' correlations are their indexes, so a confirm costs the pipeline
 * thread one array store and nothing per record crosses threads: when the frame's last record has its outcome, the
 * pipeline thread pushes the frame onto this connection's list of completed frames (a lock-free stack, linked
 * through the frames, so nothing is allocated) and, if the list was empty, wakes the event loop. The event loop takes
 * the whole list at once, answers every frame in the order they completed (so confirms of one partition keep their
 * order) and flushes once. Counting unconfirmed records here is what lets the connection stop reading when the client
 * outruns the log.
 * <p>
 * Not thread-safe: used on the connection's event loop; {@link #completed} is called on pipeline threads.
 */
final class PublishSession implements PendingPublish.Completion
{
    /** Frames kept for reuse; a burst of more frames in flight than this allocates, and the extra ones go. */
    private static final int MAX_SPARE = 1024;

    private final Channel channel;
    private final ReadGate gate;
    private final LogProducer producer;
    private final Router router;
    private final TopicCache topics;
    private final int maxUnconfirmed;
    private final String writesRefused;
    private final AtomicReference<PendingPublish> completedFrames = new AtomicReference<>();
    private final Runnable drainTask = this::drain;
    private final ArrayDeque<PendingPublish> spare = new ArrayDeque<>();
    /** The body of the frame being published, which the batch's records point into. */
    private final UnsafeBuffer records = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer headers = new UnsafeBuffer(0, 0);
    private final RecordBatch batch = new RecordBatch();
    private int unconfirmed;

    PublishSession(final Channel channel, final ReadGate gate, final LogProducer producer, final Router router,
        final TopicCache topics, final int maxUnconfirmed, final String writesRefused)
    {
        this.writesRefused = writesRefused;
        this.channel = channel;
        this.gate = gate;
        this.producer = producer;
        this.router = router;
        this.topics = topics;
        this.maxUnconfirmed = maxUnconfirmed;
    }

    /**
     * Publishes the records of a PUBLISH body (reader index after the frame header). Nothing is published unless
     * the whole body is well formed, every record fits the log and no subscription of the topic refuses it.
     *
     * @throws QueueFullException when a subscription of the topic is full under a reject policy.
     * @throws InvalidRequestException when the server refuses writes ({@link ServerConfig#writesRefused()}).
     */
    void publish(final long correlationId, final ByteBuf body)
    {
        if (writesRefused != null)
        {
            throw new InvalidRequestException(writesRefused);
        }
        final Topic topic = topics.read(body);
        final int partition = body.readIntLE();
        final int count = body.readIntLE();
        if (count < 1)
        {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "record count must be at least 1, was " + count);
        }
        final PartitionLog log = topic.partition(partition);
        gather(body, count);
        if (router.gate().refuses(topic.name()))
        {
            refuseIfFull(topic.name(), partition, body, count);
        }

        final PendingPublish publish = spare.isEmpty() ? new PendingPublish(this) : spare.pop();
        publish.reset(correlationId, count);
        try
        {
            producer.publishBatch(log, batch, publish, 0);
        }
        catch (final RuntimeException ex)
        {
            recycle(publish);
            throw ex;
        }
        unconfirmed += count;
        if (unconfirmed >= maxUnconfirmed && !gate.isConfirmsBehind())
        {
            gate.confirmsBehind(true);
        }
    }

    /**
     * Checks the records of a body (reader index at its first record) as {@link #publish} does and copies them out,
     * for a publish that leaves this connection (a cluster node's {@code PUBLISH_SEQUENCED}).
     *
     * @throws IndexOutOfBoundsException when a record runs past the frame, has negative lengths, or bytes are left.
     */
    List<ProducerRecord> copyRecords(final String topic, final int partition, final ByteBuf body, final int count)
    {
        gather(body, count);
        return decode(topic, partition, body, count);
    }

    /**
     * Notes where the records of the body lie, for the batch to publish them from the frame itself: each record's
     * bytes are copied once, into the ring. Each record's fields are checked to lie inside the frame as it is read.
     *
     * @throws IndexOutOfBoundsException when a record runs past the frame, has negative lengths, or bytes are left.
     */
    private void gather(final ByteBuf body, final int count)
    {
        final int start = body.readerIndex();
        FrameBytes.wrap(records, body, start, body.readableBytes());
        batch.clearOver(records);
        int index = start;
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
            final int keyBytes = Math.max(0, keyLength);
            final int valueBytes = Math.max(0, valueLength);
            if ((long)keyBytes + headersLength + valueBytes > end - index - RECORD_HEADER_LENGTH)
            {
                throw new IndexOutOfBoundsException("record " + i + " of " + count + " runs past the frame");
            }
            final int keyIndex = index + RECORD_HEADER_LENGTH;
            batch.addInPlace(body.getLongLE(index + RECORD_TIMESTAMP_OFFSET),
                body.getIntLE(index + RECORD_ATTRIBUTES_OFFSET), keyIndex - start, keyLength, headersLength, valueLength);
            index = keyIndex + keyBytes + headersLength + valueBytes;
        }
        if (index != end)
        {
            throw new IndexOutOfBoundsException((end - index) + " bytes left after " + count + " records");
        }
    }

    /**
     * Refuses the frame through the same gate as {@code SpoolProducer.sendBatch}, when a subscription refuses any of
     * its records; each record is offered to the gate, so that under reject-publish-dlx every one is dead-lettered.
     * A subscription that freed room since the flag was read refuses none, and the frame is then published. This
     * runs on the event loop, like the rest of the frame, so that the connection's later frames cannot be stored
     * ahead of this one; a dead letter is waited for here as the embedded producer waits for it, which only a
     * refused frame under reject-publish-dlx pays.
     *
     * @throws QueueFullException naming the first full subscription met.
     */
    private void refuseIfFull(final String topic, final int partition, final ByteBuf body, final int count)
    {
        router.gate().admitAll(decode(topic, partition, body, count));
    }

    /** Copies the records of a body that {@link #gather} found well formed into records of the partition. */
    private List<ProducerRecord> decode(final String topic, final int partition, final ByteBuf body, final int count)
    {
        final List<ProducerRecord> records = new ArrayList<>(count);
        int index = body.readerIndex();
        for (int i = 0; i < count; i++)
        {
            final int keyLength = body.getIntLE(index + RECORD_KEY_LENGTH_OFFSET);
            final int headersLength = body.getIntLE(index + RECORD_HEADERS_LENGTH_OFFSET);
            final int valueLength = body.getIntLE(index + RECORD_VALUE_LENGTH_OFFSET);
            final int keyIndex = index + RECORD_HEADER_LENGTH;
            final int headersIndex = keyIndex + Math.max(0, keyLength);
            final int valueIndex = headersIndex + headersLength;
            FrameBytes.wrap(headers, body, headersIndex, headersLength);
            records.add(new ProducerRecord(topic, partition, body.getLongLE(index + RECORD_TIMESTAMP_OFFSET),
                copy(body, keyIndex, keyLength), HeadersCodec.decode(headers, 0, headersLength),
                copy(body, valueIndex, valueLength)));
            index = valueIndex + Math.max(0, valueLength);
        }
        return records;
    }

    /** The bytes of a key or value field, null for the length -1 that stands for null. */
    private static byte[] copy(final ByteBuf body, final int index, final int length)
    {
        if (length < 0)
        {
            return null;
        }
        final byte[] bytes = new byte[length];
        body.getBytes(index, bytes);
        return bytes;
    }

    /** Pipeline thread: every record of {@code publish} has its outcome. */
    @Override
    public void completed(final PendingPublish publish)
    {
        PendingPublish head;
        do
        {
            head = completedFrames.get();
            publish.next = head;
        }
        while (!completedFrames.compareAndSet(head, publish));
        if (head == null)
        {
            // the list was empty, so no drain is pending that would see this frame
            try
            {
                channel.eventLoop().execute(drainTask);
            }
            catch (final RejectedExecutionException ex)
            {
                // the server is shutting down and its connections with it: nobody is left to answer
            }
        }
    }

    /** Event loop: answers every completed frame in the order they completed, then flushes once. */
    private void drain()
    {
        PendingPublish newestFirst = completedFrames.getAndSet(null);
        PendingPublish oldestFirst = null;
        while (newestFirst != null)
        {
            final PendingPublish next = newestFirst.next;
            newestFirst.next = oldestFirst;
            oldestFirst = newestFirst;
            newestFirst = next;
        }
        while (oldestFirst != null)
        {
            final PendingPublish next = oldestFirst.next;
            respond(oldestFirst);
            unconfirmed -= oldestFirst.expected;
            recycle(oldestFirst);
            oldestFirst = next;
        }
        channel.flush();
        if (gate.isConfirmsBehind() && unconfirmed <= maxUnconfirmed / 2)
        {
            gate.confirmsBehind(false);
        }
    }

    private void recycle(final PendingPublish publish)
    {
        publish.next = null;
        if (spare.size() < MAX_SPARE)
        {
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
            FrameDescriptor.finish(out, start);
        }
        channel.write(out, channel.voidPromise());
    }
}
