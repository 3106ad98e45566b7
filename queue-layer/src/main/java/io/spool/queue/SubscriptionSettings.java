package io.spool.queue;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The settings of a queue subscription: lock (visibility) timeout, delivery limit, dead-letter topic, retention
 * mode and start position. Validated when built. Immutable and thread-safe.
 * <p>
 * The delivery limit counts like RabbitMQ quorum queues: with a limit of 3 a message is delivered 4 times, and
 * goes dead when the fourth delivery comes back unacknowledged. {@link #UNLIMITED_DELIVERIES} turns the limit off,
 * which has to be asked for explicitly so that a poison message cannot loop forever by default.
 */
public final class SubscriptionSettings
{
    public static final long DEFAULT_LOCK_TIMEOUT_MILLIS = 30_000;
    /** The same bound as Amazon SQS's visibility timeout. */
    public static final long MAX_LOCK_TIMEOUT_MILLIS = 12 * 60 * 60 * 1000L;
    public static final int DEFAULT_DELIVERY_LIMIT = 20;
    public static final int UNLIMITED_DELIVERIES = -1;
    /** A sanity bound: a message delivered a million times is a bug, not a retry policy. */
    public static final int MAX_DELIVERY_LIMIT = 1_000_000;
    public static final int MAX_TOPIC_NAME_LENGTH = 249;

    private static final Pattern TOPIC_NAME = Pattern.compile("[A-Za-z0-9._-]+");

    public static final SubscriptionSettings DEFAULT = builder().build();

    private final long lockTimeoutMillis;
    private final int deliveryLimit;
    private final String deadLetterTopic;
    private final RetentionMode retentionMode;
    private final StartPosition startPosition;

    private SubscriptionSettings(final Builder builder)
    {
        this.lockTimeoutMillis = builder.lockTimeoutMillis;
        this.deliveryLimit = builder.deliveryLimit;
        this.deadLetterTopic = builder.deadLetterTopic;
        this.retentionMode = builder.retentionMode;
        this.startPosition = builder.startPosition;
    }

    public static Builder builder()
    {
        return new Builder();
    }

    public Builder toBuilder()
    {
        return new Builder()
            .lockTimeoutMillis(lockTimeoutMillis)
            .deliveryLimit(deliveryLimit)
            .deadLetterTopic(deadLetterTopic)
            .retentionMode(retentionMode)
            .startPosition(startPosition);
    }

    public long lockTimeoutMillis()
    {
        return lockTimeoutMillis;
    }

    /** Deliveries allowed before the next return makes the message dead, or {@link #UNLIMITED_DELIVERIES}. */
    public int deliveryLimit()
    {
        return deliveryLimit;
    }

    public boolean hasDeliveryLimit()
    {
        return deliveryLimit != UNLIMITED_DELIVERIES;
    }

    /** The topic dead messages are published to, or null to drop them. */
    public String deadLetterTopic()
    {
        return deadLetterTopic;
    }

    public RetentionMode retentionMode()
    {
        return retentionMode;
    }

    public StartPosition startPosition()
    {
        return startPosition;
    }

    @Override
    public boolean equals(final Object other)
    {
        if (!(other instanceof SubscriptionSettings))
        {
            return false;
        }
        final SubscriptionSettings that = (SubscriptionSettings)other;
        return lockTimeoutMillis == that.lockTimeoutMillis && deliveryLimit == that.deliveryLimit &&
            Objects.equals(deadLetterTopic, that.deadLetterTopic) && retentionMode == that.retentionMode &&
            startPosition.equals(that.startPosition);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(lockTimeoutMillis, deliveryLimit, deadLetterTopic, retentionMode, startPosition);
    }

    @Override
    public String toString()
    {
        return "SubscriptionSettings{lockTimeoutMillis=" + lockTimeoutMillis + ", deliveryLimit=" + deliveryLimit +
            ", deadLetterTopic=" + deadLetterTopic + ", retentionMode=" + retentionMode +
            ", startPosition=" + startPosition + '}';
    }

    /** Collects settings; {@link #build()} validates them. Not thread-safe. */
    public static final class Builder
    {
        private long lockTimeoutMillis = DEFAULT_LOCK_TIMEOUT_MILLIS;
        private int deliveryLimit = DEFAULT_DELIVERY_LIMIT;
        private String deadLetterTopic;
        private RetentionMode retentionMode = RetentionMode.WORK_QUEUE;
        private StartPosition startPosition = StartPosition.earliest();

        private Builder()
        {
        }

        public Builder lockTimeoutMillis(final long lockTimeoutMillis)
        {
            this.lockTimeoutMillis = lockTimeoutMillis;
            return this;
        }

        public Builder deliveryLimit(final int deliveryLimit)
        {
            this.deliveryLimit = deliveryLimit;
            return this;
        }

        public Builder deadLetterTopic(final String deadLetterTopic)
        {
            this.deadLetterTopic = deadLetterTopic;
            return this;
        }

        public Builder retentionMode(final RetentionMode retentionMode)
        {
            this.retentionMode = retentionMode;
            return this;
        }

        public Builder startPosition(final StartPosition startPosition)
        {
            this.startPosition = startPosition;
            return this;
        }

        /**
         * @throws InvalidSettingsException naming the first setting out of range.
         */
        public SubscriptionSettings build()
        {
            if (lockTimeoutMillis < 1 || lockTimeoutMillis > MAX_LOCK_TIMEOUT_MILLIS)
            {
                throw new InvalidSettingsException("lock timeout must be between 1 ms and " +
                    MAX_LOCK_TIMEOUT_MILLIS + " ms (12 h), was " + lockTimeoutMillis + " ms");
            }
            if (deliveryLimit != UNLIMITED_DELIVERIES && (deliveryLimit < 1 || deliveryLimit > MAX_DELIVERY_LIMIT))
            {
                throw new InvalidSettingsException("delivery limit must be between 1 and " + MAX_DELIVERY_LIMIT +
                    ", or " + UNLIMITED_DELIVERIES + " to turn it off explicitly, was " + deliveryLimit);
            }
            if (deadLetterTopic != null && (deadLetterTopic.isEmpty() ||
                deadLetterTopic.length() > MAX_TOPIC_NAME_LENGTH || !TOPIC_NAME.matcher(deadLetterTopic).matches()))
            {
                throw new InvalidSettingsException("dead-letter topic must be 1 to " + MAX_TOPIC_NAME_LENGTH +
                    " characters of [A-Za-z0-9._-], was '" + deadLetterTopic + "'");
            }
            if (retentionMode == null)
            {
                throw new InvalidSettingsException("retention mode must be WORK_QUEUE or NONE, was null");
            }
            if (startPosition == null)
            {
                throw new InvalidSettingsException(
                    "start position must be earliest, latest, an offset or a timestamp, was null");
            }
            return new SubscriptionSettings(this);
        }
    }
}
