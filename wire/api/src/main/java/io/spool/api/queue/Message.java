package io.spool.api.queue;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A message a subscription delivered: where it is in its topic, how often it was delivered, the receipt that settles
 * it, and its record. A message handed to a {@link MessageListener} is a view valid only during the call (copy what
 * you keep); one returned by {@link QueueSubscription#receive} is the caller's.
 */
public interface Message
{
    String subscription();

    int partition();

    long offset();

    /** The record's timestamp, epoch milliseconds. */
    long timestamp();

    /** 1 for the first delivery, counting up with each redelivery. */
    int deliveryNumber();

    /** True when this message was delivered before. */
    default boolean redelivered()
    {
        return deliveryNumber() > 1;
    }

    /** What acks, nacks, rejects or extends this delivery; a later delivery of the message has another. */
    Receipt receipt();

    /** The key, or null when the record has none. */
    byte[] key();

    /** The value, or null when the record has none. */
    byte[] value();

    /** The value as UTF-8 text, or null for a null value. */
    default String valueAsString()
    {
        final byte[] value = value();
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    /** The record's headers, empty when it has none. */
    Map<String, byte[]> headers();

    /** The header's value as UTF-8 text, or null when the record has no such header. */
    default String header(final String name)
    {
        final byte[] value = headers().get(name);
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }
}
