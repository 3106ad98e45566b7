package io.spool.log;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.LongArrayList;

/**
 * Records gathered for one {@link LogProducer#publishBatch} call: their bytes back to back in one growable buffer.
 * Reusable after {@link #clear()}; grows to the largest batch it has held. Not thread-safe.
 */
public final class RecordBatch
{
    private final ExpandableArrayBuffer bytes = new ExpandableArrayBuffer(4096);
    private final IntArrayList layout = new IntArrayList();
    private final LongArrayList timestamps = new LongArrayList();
    private int used;
    private static final int FIELDS = 5;

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

    /** Adds a record with attributes (see {@link RecordDescriptor#ATTRIBUTE_DEDUP}). */
    public RecordBatch add(final long timestamp, final int attributes,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer headers, final int headersOffset, final int headersLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        final int start = used;
        if (keyLength > 0)
        {
            bytes.putBytes(used, key, keyOffset, keyLength);
            used += keyLength;
        }
        if (headersLength > 0)
        {
            bytes.putBytes(used, headers, headersOffset, headersLength);
            used += headersLength;
        }
        if (valueLength > 0)
        {
            bytes.putBytes(used, value, valueOffset, valueLength);
            used += valueLength;
        }
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

    public void clear()
    {
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
        LogProducer.checkAttributes(layout.getInt(record * FIELDS + 4), bytes, start + Math.max(0, keyLength(record)),
            headersLength(record));
    }

    void fill(final AppendEvent event, final int record, final PartitionLog log, final ConfirmListener listener,
        final long correlation)
    {
        final int start = layout.getInt(record * FIELDS);
        final int keyLength = keyLength(record);
        final int headersLength = headersLength(record);
        final int keyBytes = Math.max(0, keyLength);
        event.set(log, timestamps.getLong(record), layout.getInt(record * FIELDS + 4),
            bytes, start, keyLength,
            bytes, start + keyBytes, headersLength,
            bytes, start + keyBytes + headersLength, valueLength(record),
            listener, correlation);
    }
}
