package io.spool.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The reference model of one partition log: a list of records and the offset of the first one. Written for
 * clarity, not speed, and independent of the engine's code. Not thread-safe.
 */
public final class LogModel
{
    /** One record as the model remembers it. */
    public static final class Record
    {
        public final long offset;
        public final long timestamp;
        public final byte[] key;
        public final byte[] value;

        public Record(final long offset, final long timestamp, final byte[] key, final byte[] value)
        {
            this.offset = offset;
            this.timestamp = timestamp;
            this.key = key;
            this.value = value;
        }

        @Override
        public boolean equals(final Object o)
        {
            if (!(o instanceof Record))
            {
                return false;
            }
            final Record r = (Record)o;
            return offset == r.offset && timestamp == r.timestamp && Arrays.equals(key, r.key) &&
                Arrays.equals(value, r.value);
        }

        @Override
        public int hashCode()
        {
            return Objects.hash(offset, timestamp, Arrays.hashCode(key), Arrays.hashCode(value));
        }

        @Override
        public String toString()
        {
            return offset + "@" + timestamp + "[" + (key == null ? "null" : key.length + "B") + "," +
                (value == null ? "null" : value.length + "B") + "]";
        }
    }

    private final List<Record> records = new ArrayList<>();
    private long startOffset;

    public long startOffset()
    {
        return startOffset;
    }

    public long endOffset()
    {
        return startOffset + records.size();
    }

    public long append(final long timestamp, final byte[] key, final byte[] value)
    {
        final long offset = endOffset();
        records.add(new Record(offset, timestamp, key, value));
        return offset;
    }

    /** Up to {@code max} records from {@code from}, which must lie in [start, end]. */
    public List<Record> read(final long from, final int max)
    {
        if (from < startOffset || from > endOffset())
        {
            throw new IllegalArgumentException("model read out of range: " + from);
        }
        final int first = (int)(from - startOffset);
        return new ArrayList<>(records.subList(first, Math.min(records.size(), first + max)));
    }

    /** Forgets every record below {@code newStart}. */
    public List<Record> dropBelow(final long newStart)
    {
        final List<Record> dropped = new ArrayList<>();
        while (startOffset < newStart && !records.isEmpty())
        {
            dropped.add(records.remove(0));
            startOffset++;
        }
        if (records.isEmpty())
        {
            startOffset = Math.max(startOffset, newStart);
        }
        return dropped;
    }

    /** A crash tore the newest record: it is gone. */
    public void dropLast()
    {
        if (!records.isEmpty())
        {
            records.remove(records.size() - 1);
        }
    }

    /** The first offset whose timestamp is at or after {@code timestamp}, or the end offset. */
    public long offsetForTimestamp(final long timestamp)
    {
        for (final Record record : records)
        {
            if (record.timestamp >= timestamp)
            {
                return record.offset;
            }
        }
        return endOffset();
    }

    public boolean isEmpty()
    {
        return records.isEmpty();
    }
}
