package io.spool.wire.client;

import io.spool.api.queue.Message;
import io.spool.api.queue.Receipt;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One delivery of a subscription received over the network, copied out of its frame. Settle it by its
 * {@link #receipt()}. Immutable as far as its arrays are left alone; thread-safe under that condition.
 */
public record RemoteDelivery(String subscription, long issuer, int partition, long offset, int deliveryNumber,
    boolean redelivered, long timestamp, byte[] key, Map<String, byte[]> headers, byte[] value) implements Message
{
    public Receipt receipt()
    {
        return new Receipt(issuer, partition, offset, deliveryNumber);
    }

    /** The value as UTF-8 text, or null for a null value. */
    public String valueAsString()
    {
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }
}
