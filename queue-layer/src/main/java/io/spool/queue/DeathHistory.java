package io.spool.queue;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The headers a dead-lettered message carries, like RabbitMQ's {@code x-death}: where it died (topic, subscription,
 * partition, offset), why, how often it has died, and when it first and last died. A message that dies again
 * (after a redrive) keeps its first death time and counts up. Thread-safe (stateless).
 */
public final class DeathHistory
{
    public static final String REASON = "x-death-reason";
    public static final String TOPIC = "x-death-topic";
    public static final String SUBSCRIPTION = "x-death-subscription";
    public static final String PARTITION = "x-death-partition";
    public static final String OFFSET = "x-death-offset";
    public static final String COUNT = "x-death-count";
    public static final String DELIVERIES = "x-death-deliveries";
    public static final String FIRST_TIME = "x-death-first-time";
    public static final String LAST_TIME = "x-death-last-time";

    private DeathHistory()
    {
    }

    /**
     * The original headers with the death fields added or updated.
     */
    public static Map<String, byte[]> record(final Map<String, byte[]> original, final String topic,
        final String subscription, final int partition, final long offset, final DeadReason reason,
        final int deliveries, final long nowMillis)
    {
        final Map<String, byte[]> headers = new LinkedHashMap<>(original);
        final long count = number(headers, COUNT, 0) + 1;
        final long first = number(headers, FIRST_TIME, nowMillis);
        put(headers, REASON, reason.label());
        put(headers, TOPIC, topic);
        put(headers, SUBSCRIPTION, subscription);
        put(headers, PARTITION, Integer.toString(partition));
        put(headers, OFFSET, Long.toString(offset));
        put(headers, COUNT, Long.toString(count));
        put(headers, DELIVERIES, Integer.toString(deliveries));
        put(headers, FIRST_TIME, Long.toString(first));
        put(headers, LAST_TIME, Long.toString(nowMillis));
        return headers;
    }

    private static long number(final Map<String, byte[]> headers, final String name, final long absent)
    {
        final byte[] value = headers.get(name);
        if (value == null)
        {
            return absent;
        }
        try
        {
            return Long.parseLong(new String(value, StandardCharsets.UTF_8));
        }
        catch (final NumberFormatException ex)
        {
            return absent;
        }
    }

    private static void put(final Map<String, byte[]> headers, final String name, final String value)
    {
        headers.put(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
