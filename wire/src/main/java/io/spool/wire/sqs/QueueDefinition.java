package io.spool.wire.sqs;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the SQS endpoint keeps about a queue beyond its subscription's settings (which hold its visibility timeout and
 * redrive policy): whether it is FIFO, when it was made and changed, its incarnation (renewed by a purge, so that
 * older receipt handles are refused), whether it made its topic, the SQS-only attributes as given (delays, wait
 * time, size limit, retention, dedup and the rest) and its tags. Immutable and thread-safe.
 *
 * @param attributes SQS attribute names to their values, as {@link QueueAttributes} checked them
 */
record QueueDefinition(String name, boolean fifo, long createdSeconds, long modifiedSeconds, long incarnation,
    boolean ownsTopic, Map<String, String> attributes, Map<String, String> tags)
{
    QueueDefinition
    {
        attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
        tags = Collections.unmodifiableMap(new LinkedHashMap<>(tags));
    }

    /** A subscription made without the endpoint: no SQS attributes of its own, incarnation 0. */
    static QueueDefinition adopted(final String name, final boolean fifo)
    {
        return new QueueDefinition(name, fifo, 0, 0, 0, false, Map.of(), Map.of());
    }

    int delaySeconds()
    {
        return (int)number(QueueAttributes.DELAY_SECONDS, 0);
    }

    int waitTimeSeconds()
    {
        return (int)number(QueueAttributes.RECEIVE_MESSAGE_WAIT_TIME_SECONDS, 0);
    }

    /**
     * The MessageRetentionPeriod given to the queue in milliseconds, or -1 when none was: a queue made with the
     * default has it as its topic's retention, and a subscription made without the endpoint keeps Spool's.
     */
    long retentionMillis()
    {
        final long seconds = number(QueueAttributes.MESSAGE_RETENTION_PERIOD, -1);
        return seconds < 0 ? -1 : seconds * 1000;
    }

    int maximumMessageSize()
    {
        return (int)number(QueueAttributes.MAXIMUM_MESSAGE_SIZE, QueueAttributes.DEFAULT_MAXIMUM_MESSAGE_SIZE);
    }

    boolean contentBasedDeduplication()
    {
        return Boolean.parseBoolean(attributes.get(QueueAttributes.CONTENT_BASED_DEDUPLICATION));
    }

    private long number(final String attribute, final long absent)
    {
        final String value = attributes.get(attribute);
        return value == null ? absent : Long.parseLong(value);
    }

    QueueDefinition withAttributes(final Map<String, String> changed, final long nowSeconds)
    {
        final Map<String, String> merged = new LinkedHashMap<>(attributes);
        changed.forEach((name, value) ->
        {
            if (value == null)
            {
                merged.remove(name);
            }
            else
            {
                merged.put(name, value);
            }
        });
        return new QueueDefinition(name, fifo, createdSeconds, nowSeconds, incarnation, ownsTopic, merged, tags);
    }

    QueueDefinition withTags(final Map<String, String> changed)
    {
        return new QueueDefinition(name, fifo, createdSeconds, modifiedSeconds, incarnation, ownsTopic, attributes,
            changed);
    }

    QueueDefinition withIncarnation(final long next)
    {
        return new QueueDefinition(name, fifo, createdSeconds, modifiedSeconds, next, ownsTopic, attributes, tags);
    }
}
