package io.spool.stream;

import java.util.Map;

/**
 * A record for the convenient (copying) publish path of {@link StreamProducer}. A partition of
 * {@link #ANY_PARTITION} lets the producer choose: by key, or in turn when the key is null.
 * Immutable as far as its arrays are left alone; thread-safe under that condition.
 */
public record ProducerRecord(String topic, int partition, byte[] key, Map<String, byte[]> headers, byte[] value)
{
    public static final int ANY_PARTITION = -1;

    public static ProducerRecord of(final String topic, final byte[] key, final byte[] value)
    {
        return new ProducerRecord(topic, ANY_PARTITION, key, Map.of(), value);
    }

    public static ProducerRecord toPartition(final String topic, final int partition, final byte[] key,
        final byte[] value)
    {
        return new ProducerRecord(topic, partition, key, Map.of(), value);
    }
}
