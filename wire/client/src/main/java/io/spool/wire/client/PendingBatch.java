package io.spool.wire.client;

import io.netty.buffer.ByteBuf;
import io.spool.api.SpoolException;
import io.spool.api.stream.PublishListener;
import io.spool.api.stream.PublishResult;
import io.spool.wire.PublishDescriptor;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Records for one partition gathered into one PUBLISH frame, then waiting for its confirm.
 * <p>
 * Design note: the producing thread appends, and the linger timer on the event loop may send the batch; they hand
 * it over through {@link #state} without a lock. The producer moves OPEN to APPENDING while it writes a record and
 * back; whoever moves it from OPEN to SEALED sends it, and nobody appends after that.
 * <p>
 * Thread-safe as far as that protocol goes: appends on the producing thread, the response on the event loop.
 */
final class PendingBatch implements ResponseHandler
{
    static final int OPEN = 0;
    static final int APPENDING = 1;
    static final int SEALED = 2;

    final AtomicInteger state = new AtomicInteger(APPENDING);
    final ByteBuf frame;
    final String topic;
    final int partition;
    private final RemoteProducer producer;
    private final PublishListener listener;
    private final int countIndex;
    private int count;
    private long[] correlations;
    private CompletableFuture<PublishResult>[] futures;

    /** @param expectedRecords how many records the batch will likely hold, so its arrays are sized once. */
    PendingBatch(final RemoteProducer producer, final PublishListener listener, final ByteBuf frame,
        final byte[] topicUtf8, final String topic, final int partition, final int expectedRecords)
    {
        this.correlations = new long[Math.max(16, expectedRecords)];
        this.producer = producer;
        this.listener = listener;
        this.frame = frame;
        this.topic = topic;
        this.partition = partition;
        this.countIndex = PublishDescriptor.beginRequest(frame, 0, topicUtf8, partition);
    }

    int sizeInBytes()
    {
        return frame.writerIndex();
    }

    /** Producing thread, in APPENDING state. */
    @SuppressWarnings("unchecked")
    void append(final long timestamp, final int attributes, final byte[] key, final byte[] headers, final byte[] value,
        final long correlation, final CompletableFuture<PublishResult> future)
    {
        PublishDescriptor.appendRecord(frame, timestamp, attributes, key, headers, value);
        if (count == correlations.length)
        {
            correlations = java.util.Arrays.copyOf(correlations, count * 2);
            if (futures != null)
            {
                futures = java.util.Arrays.copyOf(futures, count * 2);
            }
        }
        if (future != null)
        {
            if (futures == null)
            {
                futures = new CompletableFuture[correlations.length];
            }
            futures[count] = future;
        }
        correlations[count++] = correlation;
    }

    /** Whoever sealed the batch: stores the record count in the frame. */
    void finishFrame()
    {
        PublishDescriptor.finishRequest(frame, countIndex, count);
    }

    @Override
    public void onResponse(final ByteBuf body)
    {
        final int confirmed = body.readIntLE();
        for (int i = 0; i < count; i++)
        {
            final long offset = i < confirmed ? body.readLongLE() : -1;
            if (futures != null && futures[i] != null)
            {
                futures[i].complete(new PublishResult(topic, partition, offset));
            }
            else
            {
                listener.onPublished(correlations[i], topic, partition, offset);
            }
        }
        producer.onConfirmed(count);
    }

    @Override
    public void onError(final RuntimeException error)
    {
        final SpoolException failure = error instanceof SpoolException ? (SpoolException)error :
            new SpoolException(error.getMessage(), error);
        for (int i = 0; i < count; i++)
        {
            if (futures != null && futures[i] != null)
            {
                futures[i].completeExceptionally(error);
            }
            else
            {
                listener.onFailed(correlations[i], topic, partition, failure);
            }
        }
        producer.onConfirmed(count);
    }
}
