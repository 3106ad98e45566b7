package io.spool.wire.client;

import io.spool.api.stream.StreamReader;
import io.netty.buffer.ByteBuf;
import io.spool.api.log.HeadersCodec;
import io.spool.api.log.RecordDescriptor;
import io.spool.api.log.RecordView;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.StreamRecordHandler;
import io.spool.api.stream.TopicDescription;
import io.spool.api.stream.TopicPartition;
import io.spool.wire.ConnectionLostException;
import io.spool.wire.FetchDescriptor;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads assigned partitions from a server by offset, like the embedded stream consumer: {@link #seek} anywhere,
 * {@link #poll} with long poll. Records reach the handler as the same {@link RecordView}s the embedded consumer
 * hands out, over the frames the server sent as they lie in its segment. A partition starts at offset 0.
 * <p>
 * Not thread-safe: one consumer per consuming thread.
 */
public final class RemoteStreamConsumer implements StreamReader
{

    private final ClientConnection connection;
    private final SpoolAdmin admin;
    private final Map<TopicPartition, Long> positions = new LinkedHashMap<>();
    private final Map<String, byte[]> topicNames = new LinkedHashMap<>();
    private final RecordView view = new RecordView();
    private final UnsafeBuffer records = new UnsafeBuffer(0, 0);
    private final Map<TopicPartition, FutureResponse<ByteBuf>> inFlight = new LinkedHashMap<>();

    RemoteStreamConsumer(final ClientConnection connection, final SpoolAdmin admin)
    {
        this.connection = connection;
        this.admin = admin;
    }

    /** Reads exactly these partitions from now on; a partition kept from before keeps its position. */
    public void assign(final Collection<TopicPartition> partitions)
    {
        positions.keySet().retainAll(partitions);
        new ArrayList<>(inFlight.keySet()).stream().filter(p -> !partitions.contains(p)).forEach(this::discard);
        for (final TopicPartition partition : partitions)
        {
            positions.putIfAbsent(partition, 0L);
            topicNames.computeIfAbsent(partition.topic(), name -> name.getBytes(StandardCharsets.UTF_8));
        }
    }

    public Set<TopicPartition> assignment()
    {
        return Set.copyOf(positions.keySet());
    }

    /** The next offset {@link #poll} reads from {@code partition}. */
    public long position(final TopicPartition partition)
    {
        return positions.get(assigned(partition));
    }

    /** Moves to {@code offset}; a position outside the log fails at the next poll with the log's range. */
    public void seek(final TopicPartition partition, final long offset)
    {
        positions.put(assigned(partition), offset);
        discard(partition);
    }

    /** Forgets the fetch in flight for {@code partition}; its answer is released when it comes. */
    private void discard(final TopicPartition partition)
    {
        final FutureResponse<ByteBuf> answer = inFlight.remove(partition);
        if (answer != null)
        {
            answer.thenAccept(ByteBuf::release);
        }
    }

    public void seekToBeginning(final Collection<TopicPartition> partitions)
    {
        for (final TopicPartition partition : partitions)
        {
            seek(partition, describe(partition).startOffset());
        }
    }

    public void seekToEnd(final Collection<TopicPartition> partitions)
    {
        for (final TopicPartition partition : partitions)
        {
            seek(partition, describe(partition).endOffset());
        }
    }

    /**
     * Hands over the records that came for any assigned partition, in offset order per partition; waits up to
     * {@code timeout} for the first. Every partition has at most one fetch in flight, held on the server until data
     * comes (long poll); after records are handed over, the next fetch for their partition goes out at once, so the
     * server works while the caller handles them.
     *
     * @return how many records were handed over; 0 when the timeout passed first.
     * @throws io.spool.api.log.OffsetOutOfRangeException when a position is outside its log (it carries the range).
     */
    public int poll(final StreamRecordHandler handler, final int maxRecords, final int maxBytes,
        final Duration timeout)
    {
        if (maxRecords <= 0 || maxBytes <= 0)
        {
            throw new IllegalArgumentException("maxRecords and maxBytes must be positive, were " + maxRecords +
                " and " + maxBytes);
        }
        final long deadline = System.nanoTime() + timeout.toNanos();
        final int share = Math.max(1, maxRecords / Math.max(1, positions.size()));
        int handed = 0;
        boolean asked = false;
        while (true)
        {
            handed += collect(handler);
            final long remainingNanos = deadline - System.nanoTime();
            if (handed > 0 || (asked && remainingNanos <= 0))
            {
                break;
            }
            final int waitMillis = (int)Math.min(Integer.MAX_VALUE,
                TimeUnit.NANOSECONDS.toMillis(Math.max(0, remainingNanos)));
            final boolean sent = request(share, maxBytes, waitMillis);
            asked = true;
            awaitAny(waitMillis + (sent ? connection.requestTimeoutMillis() : 0));
        }
        if (handed > 0)
        {
            request(share, maxBytes, (int)Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        }
        return handed;
    }

    /**
     * Sends a fetch for every assigned partition that has none in flight.
     *
     * @return whether any was sent.
     */
    private boolean request(final int maxRecords, final int maxBytes, final int waitMillis)
    {
        boolean sent = false;
        for (final Map.Entry<TopicPartition, Long> entry : positions.entrySet())
        {
            final TopicPartition partition = entry.getKey();
            if (inFlight.containsKey(partition))
            {
                continue;
            }
            final ByteBuf out = connection.alloc().ioBuffer(64);
            FetchDescriptor.encodeRequest(out, 0, topicNames.get(partition.topic()), partition.partition(),
                entry.getValue(), maxRecords, maxBytes, waitMillis);
            final FutureResponse<ByteBuf> answer = new FutureResponse<>(ByteBuf::retainedSlice);
            inFlight.put(partition, answer);
            connection.send(out, answer);
            sent = true;
        }
        return sent;
    }

    /**
     * Waits until some fetch in flight is answered, at most {@code limitMillis}: a fetch just sent is answered
     * within its wait unless the server is gone, so the limit adds the request timeout only when one was sent.
     */
    private void awaitAny(final long limitMillis)
    {
        if (inFlight.isEmpty())
        {
            return;
        }
        try
        {
            CompletableFuture.anyOf(inFlight.values().toArray(new CompletableFuture<?>[0]))
                .get(limitMillis, TimeUnit.MILLISECONDS);
        }
        catch (final ExecutionException ex)
        {
            return;
        }
        catch (final TimeoutException ex)
        {
            if (!connection.isOpen())
            {
                throw new ConnectionLostException("the connection closed while fetching");
            }
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new ConnectionLostException("interrupted while waiting for a fetch");
        }
    }

    /**
     * Hands over the records of every answered fetch; a failed fetch is thrown after the others were handed over.
     */
    private int collect(final StreamRecordHandler handler)
    {
        int handed = 0;
        RuntimeException failure = null;
        final Iterator<Map.Entry<TopicPartition, FutureResponse<ByteBuf>>> answers = inFlight.entrySet().iterator();
        while (answers.hasNext())
        {
            final Map.Entry<TopicPartition, FutureResponse<ByteBuf>> entry = answers.next();
            if (!entry.getValue().isDone())
            {
                continue;
            }
            answers.remove();
            final ByteBuf body;
            try
            {
                body = entry.getValue().join();
            }
            catch (final CompletionException ex)
            {
                failure = failure == null ? ClientConnection.rethrowable(ex) : failure;
                continue;
            }
            try
            {
                handed += deliver(entry.getKey(), body, handler);
            }
            finally
            {
                body.release();
            }
        }
        if (failure != null)
        {
            throw failure;
        }
        return handed;
    }

    /** Convenience: {@link #poll(StreamRecordHandler, int, int, Duration)} into copied records. Allocates. */
    public List<ConsumerRecord> poll(final int maxRecords, final int maxBytes, final Duration timeout)
    {
        final List<ConsumerRecord> copies = new ArrayList<>();
        poll((topic, partition, record) -> copies.add(new ConsumerRecord(topic, partition, record.offset(),
            record.timestamp(), record.keyBytes(),
            HeadersCodec.decode(record.buffer(), record.headersOffset(), record.headersLength()),
            record.valueBytes())), maxRecords, maxBytes, timeout);
        return copies;
    }

    private int deliver(final TopicPartition partition, final ByteBuf body, final StreamRecordHandler handler)
    {
        final int count = body.getIntLE(body.readerIndex() + FetchDescriptor.RESPONSE_COUNT_OFFSET);
        final int length = body.getIntLE(body.readerIndex() + FetchDescriptor.RESPONSE_RECORDS_LENGTH_OFFSET);
        if (count == 0)
        {
            return 0;
        }
        final int start = body.readerIndex() + FetchDescriptor.RESPONSE_FIXED_LENGTH;
        if (body.hasMemoryAddress())
        {
            records.wrap(body.memoryAddress() + start, length);
        }
        else if (body.hasArray())
        {
            records.wrap(body.array(), body.arrayOffset() + start, length);
        }
        else
        {
            records.wrap(io.netty.buffer.ByteBufUtil.getBytes(body, start, length));
        }
        int position = 0;
        long last = -1;
        for (int i = 0; i < count; i++)
        {
            view.wrap(records, position);
            last = view.offset();
            handler.onRecord(partition.topic(), partition.partition(), view);
            position += RecordDescriptor.align(view.frameLength());
        }
        positions.put(partition, last + 1);
        return count;
    }

    private TopicDescription.PartitionDescription describe(final TopicPartition partition)
    {
        return admin.describeTopic(partition.topic()).partitions().get(partition.partition());
    }

    private TopicPartition assigned(final TopicPartition partition)
    {
        if (!positions.containsKey(partition))
        {
            throw new IllegalStateException(partition + " is not assigned to this consumer");
        }
        return partition;
    }

    @Override
    public void close()
    {
        new ArrayList<>(inFlight.keySet()).forEach(this::discard);
        positions.clear();
    }
}
