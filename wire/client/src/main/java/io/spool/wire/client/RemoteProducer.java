package io.spool.wire.client;

import io.netty.buffer.ByteBuf;
import io.spool.api.log.BackPressureException;
import io.spool.api.log.DedupKey;
import io.spool.api.log.HeadersCodec;
import io.spool.api.log.RecordDescriptor;
import io.spool.api.log.RecordTooLargeException;
import io.spool.api.stream.KeyPartitioner;
import io.spool.api.stream.Producer;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.PublishListener;
import io.spool.api.stream.PublishResult;
import io.spool.api.stream.UnknownPartitionException;
import io.spool.wire.ConnectionLostException;
import io.spool.wire.FrameDescriptor;
import io.spool.wire.PublishDescriptor;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Publishes records to a server: keyed records go to the partition the embedded producer would pick (Kafka's
 * murmur2), records without a key in turn. Records are gathered per partition into PUBLISH frames and confirmed
 * asynchronously to the {@link PublishListener} (on the connection's thread, in order per partition), or through
 * the future of {@link #send(String, byte[], byte[])}. At most {@code maxUnconfirmed} records are unconfirmed; a
 * send beyond that waits up to {@code maxBlockMillis}, then throws {@link BackPressureException}.
 * <p>
 * Not thread-safe: one producer per publishing thread, like the embedded one.
 */
public final class RemoteProducer implements Producer
{
    private final ClientConnection connection;
    private final SpoolAdmin admin;
    private final ProducerConfig config;
    private final PublishListener listener;
    private final int maxUnconfirmed;
    private final int maxFrameLength;
    private final Map<String, TopicState> topics = new HashMap<>();
    private final KeyPartitioner partitioner = new KeyPartitioner();
    /**
     * The longest a waiting producer sleeps without looking at its clock: a clock that is not wall time, or a close
     * that no confirm reported, is noticed within it.
     */
    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final AtomicLong confirmed = new AtomicLong();
    /** The producing thread while it waits for confirms, so that a confirm can wake it; null otherwise. */
    private volatile Thread waiter;
    private long sent;

    RemoteProducer(final ClientConnection connection, final SpoolAdmin admin, final ServerLimits limits,
        final ProducerConfig config, final PublishListener listener)
    {
        this.connection = connection;
        this.admin = admin;
        this.config = config;
        this.listener = listener;
        this.maxUnconfirmed = Math.min(config.maxUnconfirmed(), limits.maxUnconfirmedPublishes());
        this.maxFrameLength = limits.maxFrameLength();
    }

    /**
     * Publishes a record by key (or in turn for a null key).
     *
     * @return the partition it goes to.
     * @throws io.spool.api.stream.UnknownTopicException when the topic does not exist.
     * @throws RecordTooLargeException when the record cannot fit one frame of the server's; nothing is sent. A
     *                                 record that fits a frame but not the log's maxRecordBytes fails to the
     *                                 listener with the same exception.
     */
    public int send(final String topic, final byte[] key, final byte[] headers, final byte[] value,
        final long correlation)
    {
        final TopicState state = topic(topic);
        final int partition = key == null ? partitioner.nextSpreadPartition(state.partitions) :
            KeyPartitioner.partitionForKey(key, state.partitions);
        append(state, partition, 0, ProducerRecord.APPEND_TIME, key, headers, value, correlation, null);
        return partition;
    }

    /**
     * Publishes a record by key that the log stores only once per dedup window for {@code dedupId}: a repeat inside
     * the window is confirmed with the first one's offset (a safe retry after a lost connection).
     */
    public int sendOnce(final String topic, final byte[] key, final String dedupId, final byte[] value,
        final long correlation)
    {
        final TopicState state = topic(topic);
        final int partition = key == null ? partitioner.nextSpreadPartition(state.partitions) :
            KeyPartitioner.partitionForKey(key, state.partitions);
        final byte[] headers = HeadersCodec.encode(Map.of(DedupKey.HEADER, dedupId.getBytes(StandardCharsets.UTF_8)));
        append(state, partition, RecordDescriptor.ATTRIBUTE_DEDUP, ProducerRecord.APPEND_TIME, key, headers, value,
            correlation, null);
        return partition;
    }

    /** Publishes a record to the partition given. */
    public int sendToPartition(final String topic, final int partition, final byte[] key, final byte[] headers,
        final byte[] value, final long correlation)
    {
        final TopicState state = topic(topic);
        checkPartition(state, partition);
        append(state, partition, 0, ProducerRecord.APPEND_TIME, key, headers, value, correlation, null);
        return partition;
    }

    /** Convenience: publishes by key and completes with where the record landed. Allocates. */
    @Override
    public CompletableFuture<PublishResult> send(final String topic, final byte[] key, final byte[] value)
    {
        return send(ProducerRecord.of(topic, key, value));
    }

    /**
     * Publishes one record, to its partition when it names one, with its headers and timestamp, and completes with
     * where it landed. Allocates.
     *
     * @throws UnknownPartitionException when the record names a partition the topic does not have.
     */
    @Override
    public CompletableFuture<PublishResult> send(final ProducerRecord record)
    {
        final TopicState state = topic(record.topic());
        final int partition;
        if (record.partition() == ProducerRecord.ANY_PARTITION)
        {
            partition = record.key() == null ? partitioner.nextSpreadPartition(state.partitions) :
                KeyPartitioner.partitionForKey(record.key(), state.partitions);
        }
        else
        {
            partition = record.partition();
            checkPartition(state, partition);
        }
        final CompletableFuture<PublishResult> future = new CompletableFuture<>();
        append(state, partition, 0, record.timestamp(), record.key(),
            record.headers() == null || record.headers().isEmpty() ? null :
                HeadersCodec.encode(record.headers()), record.value(), 0, future);
        return future;
    }

    /**
     * Publishes the records in order (to any topics and partitions) and completes with every record's place once all
     * are confirmed, or exceptionally with the first failure. Unlike the embedded producer's batch, the records are
     * confirmed one by one: a failure leaves the others stored. Allocates.
     */
    @Override
    public CompletableFuture<List<PublishResult>> sendBatch(final List<ProducerRecord> records)
    {
        final List<CompletableFuture<PublishResult>> sent = new ArrayList<>(records.size());
        for (final ProducerRecord record : records)
        {
            sent.add(send(record));
        }
        return CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new))
            .thenApply(done -> sent.stream().map(CompletableFuture::join).toList());
    }

    private static void checkPartition(final TopicState state, final int partition)
    {
        if (partition < 0 || partition >= state.partitions)
        {
            throw new UnknownPartitionException("topic \"" + state.name + "\" has partitions 0.." +
                (state.partitions - 1) + ", there is no partition " + partition);
        }
    }

    /** Records sent and not yet confirmed or failed. */
    public long unconfirmed()
    {
        return sent - confirmed.get();
    }

    /** Sends every gathered record now instead of waiting for its batch to fill or linger out. */
    public void flush()
    {
        for (final TopicState state : topics.values())
        {
            for (int p = 0; p < state.open.length; p++)
            {
                final PendingBatch batch = state.open[p];
                if (batch != null)
                {
                    state.open[p] = null;
                    if (batch.state.compareAndSet(PendingBatch.OPEN, PendingBatch.SEALED))
                    {
                        dispatch(batch);
                    }
                }
            }
        }
    }

    /**
     * Flushes and waits until every record is confirmed or failed, up to {@code maxBlockMillis}.
     *
     * @return true when nothing is left unconfirmed.
     */
    public boolean awaitConfirms()
    {
        flush();
        return awaitUnconfirmedBelow(1);
    }

    /** Sends what is gathered and waits for its confirms (see {@link #awaitConfirms()}). */
    @Override
    public void close()
    {
        awaitConfirms();
    }

    private void append(final TopicState state, final int partition, final int attributes, final long timestamp,
        final byte[] key, final byte[] headers, final byte[] value, final long correlation,
        final CompletableFuture<PublishResult> future)
    {
        final int recordBytes = PublishDescriptor.RECORD_HEADER_LENGTH + length(key) + length(headers) + length(value);
        if (FrameDescriptor.HEADER_LENGTH + 2 + state.utf8.length + 8 + recordBytes > maxFrameLength)
        {
            throw RecordTooLargeException.overFrameLimit(state.name, recordBytes, maxFrameLength);
        }
        if (!connection.isOpen())
        {
            throw new ConnectionLostException("the connection is closed; records sent before it closed were " +
                "confirmed or failed to the listener");
        }
        awaitRoom();
        PendingBatch batch = state.open[partition];
        if (batch != null && batch.state.compareAndSet(PendingBatch.OPEN, PendingBatch.APPENDING))
        {
            if (batch.sizeInBytes() + recordBytes <= maxFrameLength)
            {
                batch.append(timestamp, attributes, key, headers, value, correlation, future);
                sent++;
                if (batch.sizeInBytes() >= config.batchBytes())
                {
                    state.open[partition] = null;
                    batch.state.set(PendingBatch.SEALED);
                    dispatch(batch);
                }
                else
                {
                    // an ordered store is enough: the linger timer's CAS that reads it then sees the record
                    batch.state.lazySet(PendingBatch.OPEN);
                }
                return;
            }
            batch.state.set(PendingBatch.SEALED);
            dispatch(batch);
        }
        final ByteBuf frame = connection.alloc().ioBuffer(
            Math.min(maxFrameLength, Math.max(config.batchBytes(), recordBytes) + 256));
        batch = new PendingBatch(this, listener, frame, state.utf8, state.name, partition,
            config.batchBytes() / recordBytes + 1);
        batch.append(timestamp, attributes, key, headers, value, correlation, future);
        sent++;
        if (config.lingerMillis() == 0 || batch.sizeInBytes() >= config.batchBytes())
        {
            state.open[partition] = null;
            batch.state.set(PendingBatch.SEALED);
            dispatch(batch);
            return;
        }
        state.open[partition] = batch;
        batch.state.set(PendingBatch.OPEN);
        final PendingBatch lingering = batch;
        connection.eventLoop().schedule(() -> lingerExpired(lingering), config.lingerMillis(), TimeUnit.MILLISECONDS);
    }

    /** Event loop: sends the batch unless the producer already did; waits out an append in progress. */
    private void lingerExpired(final PendingBatch batch)
    {
        final int current = batch.state.get();
        if (current == PendingBatch.OPEN && batch.state.compareAndSet(PendingBatch.OPEN, PendingBatch.SEALED))
        {
            dispatch(batch);
        }
        else if (batch.state.get() == PendingBatch.APPENDING)
        {
            connection.eventLoop().execute(() -> lingerExpired(batch));
        }
    }

    private void dispatch(final PendingBatch batch)
    {
        batch.finishFrame();
        connection.send(batch.frame, batch);
    }

    private void awaitRoom()
    {
        if (unconfirmed() < maxUnconfirmed)
        {
            return;
        }
        flush();
        if (!awaitUnconfirmedBelow(maxUnconfirmed))
        {
            throw new BackPressureException(unconfirmed() + " records are unconfirmed, the bound is " +
                maxUnconfirmed + "; no room came within " + config.maxBlockMillis() + " ms");
        }
    }

    /**
     * Parks until fewer than {@code bound} records are unconfirmed, the connection closes or
     * {@code maxBlockMillis} pass. A confirm wakes it ({@link #onConfirmed}), so a producer held back by the bound
     * sleeps once per batch confirmed instead of polling.
     *
     * @return whether fewer than {@code bound} records are unconfirmed.
     */
    private boolean awaitUnconfirmedBelow(final long bound)
    {
        final long deadline = config.clock().nanoTime() + TimeUnit.MILLISECONDS.toNanos(config.maxBlockMillis());
        waiter = Thread.currentThread();
        try
        {
            while (unconfirmed() >= bound)
            {
                final long remaining = deadline - config.clock().nanoTime();
                if (remaining <= 0 || !connection.isOpen())
                {
                    break;
                }
                LockSupport.parkNanos(this, Math.min(remaining, MAX_PARK_NANOS));
            }
        }
        finally
        {
            waiter = null;
        }
        return unconfirmed() < bound;
    }

    /** Event loop: a batch of {@code count} records was confirmed or failed; wakes a producer waiting for room. */
    void onConfirmed(final int count)
    {
        confirmed.addAndGet(count);
        final Thread parked = waiter;
        if (parked != null)
        {
            LockSupport.unpark(parked);
        }
    }

    private TopicState topic(final String name)
    {
        TopicState state = topics.get(name);
        if (state == null)
        {
            state = new TopicState(name, admin.describeTopic(name).partitions().size());
            topics.put(name, state);
        }
        return state;
    }

    private static int length(final byte[] bytes)
    {
        return bytes == null ? 0 : bytes.length;
    }

    /** A topic's partition count and the batch open for each partition; producing thread only. */
    private static final class TopicState
    {
        final String name;
        final byte[] utf8;
        final int partitions;
        final PendingBatch[] open;

        TopicState(final String name, final int partitions)
        {
            this.name = name;
            this.utf8 = name.getBytes(StandardCharsets.UTF_8);
            this.partitions = partitions;
            this.open = new PendingBatch[partitions];
        }
    }
}
