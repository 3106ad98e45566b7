package io.spool.log;

import com.lmax.disruptor.InsufficientCapacityException;
import com.lmax.disruptor.RingBuffer;
import io.spool.api.EngineClosedException;
import io.spool.api.SpoolException;
import io.spool.api.log.DedupKey;
import io.spool.api.log.HeadersCodec;
import io.spool.api.log.LogConfig;
import io.spool.api.log.RecordDescriptor;
import io.spool.api.log.RecordTooLargeException;
import io.spool.log.internal.pipeline.AppendEvent;
import io.spool.log.internal.pipeline.RecordFramer;
import io.spool.log.internal.segment.SegmentDescriptor;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Publishes records into the ingest pipeline of their log: claims a pre-allocated ring slot, frames the record
 * into it with its checksum, on this thread ({@link RecordFramer}), publishes the slot; a batch takes as few slots
 * as {@link AppendEvent#BATCH_BYTES} allows. The log's writer then only copies the frames and stores their
 * offsets. The outcome arrives later through a {@link ConfirmListener}. Nothing is allocated per record on the
 * listener path.
 * <p>
 * A producer that finds the ring full naps until there is room, each nap twice as long as the last from
 * {@link #FIRST_NAP_NANOS} up to {@link #LONGEST_NAP_NANOS}, and gives up with {@link EngineClosedException} if the
 * store or the log closes meanwhile.
 * <p>
 * Design note: the Disruptor's own claim naps a nanosecond at a time, which the kernel rounds up to its timer slack,
 * so every waiting producer woke tens of thousands of times a second, and producers waiting on a full ring took
 * enough CPU from the pipeline thread on a small machine to slow the appends they waited for. A full ring takes the
 * pipeline a few hundred microseconds to drain, so the longest nap leaves it work.
 * <p>
 * Not thread-safe: one producer per publishing thread ({@link LogStore#newProducer()} is cheap).
 */
public final class LogProducer
{
    /** {@link #tryPublish} found the pipeline full. */
    public static final long BACK_PRESSURED = -2;

    static final long FIRST_NAP_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    static final long LONGEST_NAP_NANOS = TimeUnit.MICROSECONDS.toNanos(400);
    private static final UnsafeBuffer EMPTY = new UnsafeBuffer(new byte[0]);
    public static final byte[] DEDUP_HEADER = DedupKey.HEADER.getBytes(java.nio.charset.StandardCharsets.UTF_8);

    private final LogStore store;
    private final RecordFramer framer = new RecordFramer();
    private final UnsafeBuffer keyWrapper = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer headersWrapper = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer valueWrapper = new UnsafeBuffer(0, 0);

    LogProducer(final LogStore store)
    {
        this.store = store;
    }

    /**
     * Publishes one record, waiting while the pipeline is full.
     *
     * @param timestamp epoch millis, or -1 to take the append time.
     * @param keyLength -1 for a null key.
     * @param valueLength -1 for a null value.
     * @return the ring sequence the record took.
     * @throws RecordTooLargeException when the frame would exceed the log's maxRecordBytes.
     * @throws EngineClosedException when the log or the store is closed.
     */
    public long publish(final PartitionLog log, final long timestamp,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer headers, final int headersOffset, final int headersLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final ConfirmListener listener, final long correlation)
    {
        return publish(log, timestamp, 0, key, keyOffset, keyLength, headers, headersOffset, headersLength,
            value, valueOffset, valueLength, listener, correlation);
    }

    /**
     * {@link #publish} with record attributes: {@link RecordDescriptor#ATTRIBUTE_DEDUP} asks the log to store the
     * record only if its {@link DedupKey#HEADER} was not stored inside the log's dedup window; a duplicate is
     * confirmed with the first record's offset.
     *
     * @throws IllegalArgumentException when the dedup attribute is set but the headers carry no dedup id.
     */
    public long publish(final PartitionLog log, final long timestamp, final int attributes,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer headers, final int headersOffset, final int headersLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final ConfirmListener listener, final long correlation)
    {
        final RingBuffer<AppendEvent> ring = check(log, key, keyOffset, keyLength, headers, headersOffset,
            headersLength, value, valueOffset, valueLength);
        checkAttributes(attributes, headers, headersOffset, headersLength);
        final long sequence = claim(log, ring, 1);
        fillAndPublish(ring, sequence, log, timestamp, attributes, key, keyOffset, keyLength, headers, headersOffset,
            headersLength, value, valueOffset, valueLength, listener, correlation);
        return sequence;
    }

    /**
     * Like {@link #publish} but returns {@link #BACK_PRESSURED} instead of waiting when the pipeline is full.
     */
    public long tryPublish(final PartitionLog log, final long timestamp,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer headers, final int headersOffset, final int headersLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final ConfirmListener listener, final long correlation)
    {
        return tryPublish(log, timestamp, 0, key, keyOffset, keyLength, headers, headersOffset, headersLength,
            value, valueOffset, valueLength, listener, correlation);
    }

    /**
     * {@link #tryPublish} with record attributes, as {@link #publish(PartitionLog, long, int, DirectBuffer, int,
     * int, DirectBuffer, int, int, DirectBuffer, int, int, ConfirmListener, long)}.
     */
    public long tryPublish(final PartitionLog log, final long timestamp, final int attributes,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer headers, final int headersOffset, final int headersLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final ConfirmListener listener, final long correlation)
    {
        final RingBuffer<AppendEvent> ring = check(log, key, keyOffset, keyLength, headers, headersOffset,
            headersLength, value, valueOffset, valueLength);
        checkAttributes(attributes, headers, headersOffset, headersLength);
        final long sequence;
        try
        {
            sequence = ring.tryNext();
        }
        catch (final InsufficientCapacityException ex)
        {
            return BACK_PRESSURED;
        }
        fillAndPublish(ring, sequence, log, timestamp, attributes, key, keyOffset, keyLength, headers, headersOffset,
            headersLength, value, valueOffset, valueLength, listener, correlation);
        return sequence;
    }

    /**
     * Publishes every record of {@code batch} with one claim of ring slots per ring-full; record {@code i} is
     * confirmed with correlation {@code firstCorrelation + i}. Every record is checked before anything is claimed.
     *
     * @throws RuntimeException a fault while copying records into claimed slots (never a caller's mistake, which
     *                          is refused before): none of that ring-full's records is published, while those of
     *                          earlier ring-fulls are, and their outcomes reach the listener.
     */
    public void publishBatch(final PartitionLog log, final RecordBatch batch, final ConfirmListener listener,
        final long firstCorrelation)
    {
        checkBatch(log, batch);
        final RingBuffer<AppendEvent> ring = log.pipeline().ring();
        final int maxSlots = Math.max(1, ring.getBufferSize() / 2);
        final int slotBytes = slotBytes(log);
        final long nowMillis = store.clock().time();
        int done = 0;
        while (done < batch.size())
        {
            int slots = 0;
            int end = done;
            while (end < batch.size() && slots < maxSlots)
            {
                end = batch.slotEnd(end, slotBytes);
                slots++;
            }
            final long hi = claim(log, ring, slots);
            final long lo = hi - slots + 1;
            try
            {
                int record = done;
                for (long s = lo; s <= hi; s++)
                {
                    final int slotEnd = batch.slotEnd(record, slotBytes);
                    final AppendEvent slot = ring.get(s);
                    slot.begin(log.writer, batch.frameBytes(record, slotEnd), listener, firstCorrelation + record);
                    for (int r = record; r < slotEnd; r++)
                    {
                        batch.frame(framer, slot, r, nowMillis);
                    }
                    record = slotEnd;
                }
            }
            catch (final Throwable fault)
            {
                for (long s = lo; s <= hi; s++)
                {
                    ring.get(s).abort();
                }
                throw fault;
            }
            finally
            {
                ring.publish(lo, hi);
            }
            done = end;
        }
    }

    /**
     * The timestamp a record is stored with: the caller's, unless it gave none or the log keeps append times; then
     * {@code nowMillis}, the store's clock read once per publish call. It is read here, on the producer's thread,
     * so the record's checksum covers it and the writer has nothing to add but the offset.
     */
    static long appendTime(final LogConfig config, final long timestamp, final long nowMillis)
    {
        return timestamp < 0 || config.logAppendTime() ? nowMillis : timestamp;
    }

    /**
     * The most bytes of frames one slot of a batch takes: {@link AppendEvent#BATCH_BYTES}, and never more than a
     * segment holds, so the writer rolls at most once inside a slot.
     */
    private static int slotBytes(final PartitionLog log)
    {
        return Math.min(AppendEvent.BATCH_BYTES, log.appendSettings().segmentBytes() - SegmentDescriptor.HEADER_LENGTH);
    }

    /**
     * Checks every record of {@code batch} as {@link #publishBatch} does, publishing nothing: for a caller that
     * publishes several batches and must refuse them all if any is refused.
     *
     * @throws RecordTooLargeException when a record would exceed the log's maxRecordBytes.
     * @throws IllegalArgumentException when a record's attributes are unknown or its dedup id missing.
     * @throws EngineClosedException when the log or the store is closed.
     */
    public void checkBatch(final PartitionLog log, final RecordBatch batch)
    {
        checkOpen(log);
        for (int i = 0; i < batch.size(); i++)
        {
            checkFrame(log, batch.keyLength(i), batch.headersLength(i), batch.valueLength(i));
            batch.checkAttributes(i);
        }
    }

    /**
     * Convenience for code off the hot path: publishes byte arrays and returns a future of the offset. Allocates.
     */
    public CompletableFuture<Long> append(final PartitionLog log, final byte[] key, final byte[] headers,
        final byte[] value)
    {
        final FutureConfirm confirm = new FutureConfirm();
        publish(log, -1,
            wrap(keyWrapper, key), 0, key == null ? -1 : key.length,
            wrap(headersWrapper, headers), 0, headers == null ? 0 : headers.length,
            wrap(valueWrapper, value), 0, value == null ? -1 : value.length,
            confirm, 0);
        return confirm;
    }

    /**
     * Convenience for code off the hot path: publishes and waits for the confirm.
     *
     * @return the record's offset.
     * @throws SpoolException the error the pipeline reported for this record.
     */
    public long appendAndWait(final PartitionLog log, final byte[] key, final byte[] headers, final byte[] value)
    {
        try
        {
            return append(log, key, headers, value).join();
        }
        catch (final CompletionException ex)
        {
            if (ex.getCause() instanceof SpoolException)
            {
                throw (SpoolException)ex.getCause();
            }
            throw ex;
        }
    }

    /**
     * Claims {@code n} slots, napping while the ring is full.
     *
     * @return the highest sequence claimed.
     * @throws EngineClosedException when the store or the log closes before there is room.
     */
    private long claim(final PartitionLog log, final RingBuffer<AppendEvent> ring, final int n)
    {
        long napNanos = FIRST_NAP_NANOS;
        while (true)
        {
            try
            {
                return ring.tryNext(n);
            }
            catch (final InsufficientCapacityException full)
            {
                checkOpen(log);
                LockSupport.parkNanos(this, napNanos);
                napNanos = Math.min(napNanos * 2, LONGEST_NAP_NANOS);
            }
        }
    }

    private static DirectBuffer wrap(final UnsafeBuffer wrapper, final byte[] bytes)
    {
        if (bytes == null || bytes.length == 0)
        {
            return EMPTY;
        }
        wrapper.wrap(bytes);
        return wrapper;
    }

    private RingBuffer<AppendEvent> check(final PartitionLog log,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer headers, final int headersOffset, final int headersLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        RecordRanges.check(key, keyOffset, keyLength, headers, headersOffset, headersLength,
            value, valueOffset, valueLength);
        return checkFrame(log, keyLength, headersLength, valueLength);
    }

    /** The lengths, already known to be valid, make a frame the open log takes. */
    private RingBuffer<AppendEvent> checkFrame(final PartitionLog log, final int keyLength, final int headersLength,
        final int valueLength)
    {
        checkOpen(log);
        final long frameLength = RecordDescriptor.frameLengthExact(keyLength, headersLength, valueLength);
        if (frameLength > log.appendSettings().maxRecordBytes())
        {
            throw new RecordTooLargeException(log.name(), (int)Math.min(Integer.MAX_VALUE, frameLength),
                log.appendSettings().maxRecordBytes());
        }
        return log.pipeline().ring();
    }

    private void checkOpen(final PartitionLog log)
    {
        if (store.isClosed())
        {
            throw new EngineClosedException("log store");
        }
        if (log.isClosed())
        {
            throw new EngineClosedException("log " + log.name());
        }
    }

    /**
     * Frames the record into its claimed slot and publishes the slot whatever happens: a slot claimed and never
     * published would stop the pipeline at its sequence for good, every log of the pipeline with it. A fault during
     * the framing publishes the slot as a no-op the stages skip, as Aeron turns an aborted claim into padding, and
     * reaches the caller.
     */
    private void fillAndPublish(final RingBuffer<AppendEvent> ring, final long sequence,
        final PartitionLog log, final long timestamp,
        final int attributes, final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer headers, final int headersOffset, final int headersLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final ConfirmListener listener, final long correlation)
    {
        final AppendEvent slot = ring.get(sequence);
        try
        {
            slot.begin(log.writer, RecordDescriptor.align(RecordDescriptor.frameLength(keyLength, headersLength, valueLength)),
                listener, correlation);
            framer.frame(slot, appendTime(log.appendSettings(), timestamp, store.clock().time()), attributes, key,
                keyOffset, keyLength, headers, headersOffset, headersLength, value, valueOffset, valueLength);
        }
        catch (final Throwable fault)
        {
            slot.abort();
            throw fault;
        }
        finally
        {
            ring.publish(sequence);
        }
    }

    static void checkAttributes(final int attributes, final DirectBuffer headers, final int headersOffset,
        final int headersLength)
    {
        if ((attributes & ~RecordDescriptor.ATTRIBUTE_DEDUP) != 0)
        {
            throw new IllegalArgumentException("unknown record attributes 0x" + Integer.toHexString(attributes));
        }
        if ((attributes & RecordDescriptor.ATTRIBUTE_DEDUP) != 0 &&
            HeadersCodec.locate(headers, headersOffset, headersLength, DEDUP_HEADER) < 0)
        {
            throw new IllegalArgumentException("the dedup attribute is set but the headers carry no " + DedupKey.HEADER);
        }
    }

    /**
     * A confirm delivered as a future, for the convenience methods.
     */
    private static final class FutureConfirm extends CompletableFuture<Long> implements ConfirmListener
    {
        @Override
        public void onConfirmed(final long correlation, final long offset)
        {
            complete(offset);
        }

        @Override
        public void onFailed(final long correlation, final SpoolException error)
        {
            completeExceptionally(error);
        }
    }
}
