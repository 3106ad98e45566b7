package io.spool.log;

import io.spool.api.log.RecordDescriptor;
import io.spool.log.internal.pipeline.AppendEvent;
import io.spool.log.internal.pipeline.RecordFramer;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.LongArrayList;

/**
 * Records gathered for one {@link LogProducer#publishBatch} call: their bytes back to back in one growable buffer,
 * or left where they already lie back to back, in a caller's buffer ({@link #clearOver}), so that they are copied
 * once, framed into ring slots, instead of twice. Reusable after {@link #clear()}; grows to the largest batch it has held.
 * Not thread-safe.
 */
public final class RecordBatch
{
    private static final int FIELDS = 5;

    private final ExpandableArrayBuffer bytes = new ExpandableArrayBuffer(4096);
    private final IntArrayList layout = new IntArrayList();
    private final LongArrayList timestamps = new LongArrayList();
    /** Where the records' bytes are: {@link #bytes}, or the caller's buffer of {@link #clearOver}. */
    private DirectBuffer source = bytes;
    private int used;

    /**
     * Adds a record; lengths of -1 mean a null key or value.
     *
     * @param timestamp epoch millis, or -1 for the append time.
     */
    public RecordBatch add(final long timestamp, final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer headers, final int headersOffset, final int headersLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        return add(timestamp, 0, key, keyOffset, keyLength, headers, headersOffset, headersLength,
            value, valueOffset, valueLength);
    }

    /**
     * Adds a record with attributes (see {@link RecordDescriptor#ATTRIBUTE_DEDUP}).
     *
     * @throws IndexOutOfBoundsException when a field does not lie inside its buffer; the batch is left as it was.
     */
    public RecordBatch add(final long timestamp, final int attributes,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer headers, final int headersOffset, final int headersLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        if (source != bytes)
        {
            throw new IllegalStateException("this batch's records stay in the caller's buffer: add them in place");
        }
        RecordRanges.check(key, keyOffset, keyLength, headers, headersOffset, headersLength,
            value, valueOffset, valueLength);
        final int start = used;
        used = RecordFramer.copyBody(bytes, start, key, keyOffset, keyLength, headers, headersOffset, headersLength,
            value, valueOffset, valueLength);
        return note(timestamp, attributes, start, keyLength, headersLength, valueLength);
    }

    /**
     * Empties the batch for records that stay in {@code records} until the batch is published, each one's key,
     * headers and value back to back there: {@link #addInPlace} notes where they lie and copies nothing. The caller
     * must not change those bytes before {@link LogProducer#publishBatch} returns.
     */
    public RecordBatch clearOver(final DirectBuffer records)
    {
        clear();
        source = records;
        return this;
    }

    /**
     * Adds a record whose key, headers and value lie back to back in the buffer of {@link #clearOver}, from
     * {@code bodyOffset}; lengths of -1 mean a null key or value.
     *
     * @param timestamp epoch millis, or -1 for the append time.
     * @throws IllegalStateException when the batch copies its records ({@link #clear()} was called last).
     * @throws IndexOutOfBoundsException when the record does not lie inside that buffer.
     */
    public RecordBatch addInPlace(final long timestamp, final int attributes, final int bodyOffset,
        final int keyLength, final int headersLength, final int valueLength)
    {
        if (source == bytes)
        {
            throw new IllegalStateException("this batch copies its records: add them with add, or clearOver first");
        }
        final long end = (long)bodyOffset + Math.max(0, keyLength) + headersLength + Math.max(0, valueLength);
        if (bodyOffset < 0 || headersLength < 0 || end > source.capacity())
        {
            throw new IndexOutOfBoundsException("a record of key " + keyLength + ", headers " + headersLength +
                " and value " + valueLength + " bytes at " + bodyOffset + " does not lie inside the " +
                source.capacity() + " bytes of the batch's buffer");
        }
        return note(timestamp, attributes, bodyOffset, keyLength, headersLength, valueLength);
    }

    private RecordBatch note(final long timestamp, final int attributes, final int start, final int keyLength,
        final int headersLength, final int valueLength)
    {
        layout.addInt(start);
        layout.addInt(keyLength);
        layout.addInt(headersLength);
        layout.addInt(valueLength);
        layout.addInt(attributes);
        timestamps.addLong(timestamp);
        return this;
    }

    /** Convenience: adds a record from byte arrays (null key or value allowed). */
    public RecordBatch add(final byte[] key, final byte[] headers, final byte[] value)
    {
        final org.agrona.concurrent.UnsafeBuffer k = new org.agrona.concurrent.UnsafeBuffer(key == null ? new byte[0] : key);
        final org.agrona.concurrent.UnsafeBuffer h = new org.agrona.concurrent.UnsafeBuffer(headers == null ? new byte[0] : headers);
        final org.agrona.concurrent.UnsafeBuffer v = new org.agrona.concurrent.UnsafeBuffer(value == null ? new byte[0] : value);
        return add(-1, k, 0, key == null ? -1 : key.length, h, 0, h.capacity(), v, 0, value == null ? -1 : value.length);
    }

    public int size()
    {
        return timestamps.size();
    }

    /** Empties the batch; records added next are copied into it. */
    public void clear()
    {
        source = bytes;
        used = 0;
        layout.clear();
        timestamps.clear();
    }

    int keyLength(final int record)
    {
        return layout.getInt(record * FIELDS + 1);
    }

    int headersLength(final int record)
    {
        return layout.getInt(record * FIELDS + 2);
    }

    int valueLength(final int record)
    {
        return layout.getInt(record * FIELDS + 3);
    }

    void checkAttributes(final int record)
    {
        final int start = layout.getInt(record * FIELDS);
        LogProducer.checkAttributes(layout.getInt(record * FIELDS + 4), source, start + Math.max(0, keyLength(record)),
            headersLength(record));
    }

    private int alignedFrameLength(final int record)
    {
        return RecordDescriptor.align(RecordDescriptor.frameLength(keyLength(record), headersLength(record),
            valueLength(record)));
    }

    private boolean isDedup(final int record)
    {
        return (layout.getInt(record * FIELDS + 4) & RecordDescriptor.ATTRIBUTE_DEDUP) != 0;
    }

    /**
     * Where the ring slot that starts at record {@code from} ends: at the first record that would take its frames
     * past {@code slotBytes}, or past one record that carries a dedup id, since the writer decides on those one by
     * one. A slot holds at least one record.
     */
    int slotEnd(final int from, final int slotBytes)
    {
        if (isDedup(from))
        {
            return from + 1;
        }
        int bytes = alignedFrameLength(from);
        int end = from + 1;
        while (end < size() && !isDedup(end))
        {
            bytes += alignedFrameLength(end);
            if (bytes > slotBytes)
            {
                break;
            }
            end++;
        }
        return end;
    }

    /** Bytes of the frames of records {@code [from, to)}. */
    int frameBytes(final int from, final int to)
    {
        int bytes = 0;
        for (int r = from; r < to; r++)
        {
            bytes += alignedFrameLength(r);
        }
        return bytes;
    }

    /** Frames a record into {@code slot}; a record without a timestamp of its own takes {@code nowMillis}. */
    void frame(final RecordFramer framer, final AppendEvent slot, final int record, final long nowMillis)
    {
        final int start = layout.getInt(record * FIELDS);
        final int keyLength = keyLength(record);
        final int headersLength = headersLength(record);
        final int keyBytes = Math.max(0, keyLength);
        framer.frame(slot, LogProducer.appendTime(slot.log.config(), timestamps.getLong(record), nowMillis),
            layout.getInt(record * FIELDS + 4),
            source, start, keyLength,
            source, start + keyBytes, headersLength,
            source, start + keyBytes + headersLength, valueLength(record));
    }
}
