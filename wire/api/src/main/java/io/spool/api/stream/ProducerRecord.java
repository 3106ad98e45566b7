package io.spool.api.stream;

import io.spool.api.InvalidRequestException;

import java.util.Map;

/**
 * A record for the convenient (copying) publish path of {@code StreamProducer}. A partition of
 * {@link #ANY_PARTITION} lets the producer choose: by key, or in turn when the key is null. A timestamp of
 * {@link #APPEND_TIME} takes the time the log appends it; any other is kept as given (epoch millis), so replayed
 * history keeps its own times for {@code seekToTimestamp}. Immutable as far as its arrays are left alone;
 * thread-safe under that condition.
 */
public record ProducerRecord(String topic, int partition, long timestamp, byte[] key, Map<String, byte[]> headers,
    byte[] value)
{
    public static final int ANY_PARTITION = -1;
    public static final long APPEND_TIME = -1;

    public ProducerRecord
    {
        if (timestamp < APPEND_TIME)
        {
            throw new InvalidRequestException("timestamp must be epoch millis or APPEND_TIME (-1), was " + timestamp);
        }
        if (partition < ANY_PARTITION)
        {
            throw new InvalidRequestException("partition must be >= 0 or ANY_PARTITION (-1), was " + partition);
        }
    }

    public ProducerRecord(final String topic, final int partition, final byte[] key, final Map<String, byte[]> headers,
        final byte[] value)
    {
        this(topic, partition, APPEND_TIME, key, headers, value);
    }

    public static ProducerRecord of(final String topic, final byte[] key, final byte[] value)
    {
        return new ProducerRecord(topic, ANY_PARTITION, key, Map.of(), value);
    }

    public static ProducerRecord toPartition(final String topic, final int partition, final byte[] key,
        final byte[] value)
    {
        return new ProducerRecord(topic, partition, key, Map.of(), value);
    }

    public ProducerRecord withTimestamp(final long epochMillis)
    {
        return new ProducerRecord(topic, partition, epochMillis, key, headers, value);
    }
}
