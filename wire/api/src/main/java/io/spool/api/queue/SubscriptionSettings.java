package io.spool.api.queue;


import java.util.Objects;
import java.util.regex.Pattern;

/**
 * The settings of a queue subscription: lock (visibility) timeout, delivery limit, dead-letter topic, retention
 * mode, start position, message groups, retry ladder and message time-to-live. Validated when built. Immutable and
 * thread-safe.
 * <p>
 * The delivery limit counts like RabbitMQ quorum queues: with a limit of 3 a message is delivered 4 times, and
 * goes dead when the fourth delivery comes back unacknowledged; with a limit of 0 it is delivered once (SQS's
 * maxReceiveCount of N is a limit of N - 1). {@link #UNLIMITED_DELIVERIES} turns the limit off, which has to be asked
 * for explicitly so that a poison message cannot loop forever by default.
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
    /** No bound on the backlog's length or size. */
    public static final long NO_LIMIT = -1;
    /** Messages never expire. */
    public static final long NO_TTL = 0;
    /** A year: longer lives are better served by the log's own retention. */
    public static final long MAX_TTL_MILLIS = 365L * 24 * 60 * 60 * 1000;

    private static final Pattern TOPIC_NAME = Pattern.compile("[A-Za-z0-9._-]+");

    public static final SubscriptionSettings DEFAULT = builder().build();

    private final long lockTimeoutMillis;
    private final int deliveryLimit;
    private final String deadLetterTopic;
    private final RetentionMode retentionMode;
    private final StartPosition startPosition;
    private final GroupMode groupMode;
    private final GroupKeySource groupKeySource;
    private final RetryPolicy retryPolicy;
    private final long messageTtlMillis;
    private final boolean singleActiveConsumer;
    private final long maxLength;
    private final long maxBytes;
    private final OverflowPolicy overflowPolicy;

    private SubscriptionSettings(final Builder builder)
    {
        this.lockTimeoutMillis = builder.lockTimeoutMillis;
        this.deliveryLimit = builder.deliveryLimit;
        this.deadLetterTopic = builder.deadLetterTopic;
        this.retentionMode = builder.retentionMode;
        this.startPosition = builder.startPosition;
        this.groupMode = builder.groupMode;
        this.groupKeySource = builder.groupKeySource;
        this.retryPolicy = builder.retryPolicy;
        this.messageTtlMillis = builder.messageTtlMillis;
        this.singleActiveConsumer = builder.singleActiveConsumer;
        this.maxLength = builder.maxLength;
        this.maxBytes = builder.maxBytes;
        this.overflowPolicy = builder.overflowPolicy;
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
            .startPosition(startPosition)
            .messageGroups(groupMode, groupKeySource)
            .retryPolicy(retryPolicy)
            .messageTtlMillis(messageTtlMillis)
            .singleActiveConsumer(singleActiveConsumer)
            .overflow(maxLength, maxBytes, overflowPolicy);
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

    public GroupMode groupMode()
    {
        return groupMode;
    }

    public GroupKeySource groupKeySource()
    {
        return groupKeySource;
    }

    /** What a nack does: redeliver at once ({@link RetryPolicy#NONE}) or climb a ladder of delays. */
    public RetryPolicy retryPolicy()
    {
        return retryPolicy;
    }

    /** How long a message lives after it was published before it expires, or {@link #NO_TTL}. */
    public long messageTtlMillis()
    {
        return messageTtlMillis;
    }

    /** True when one push consumer gets everything and the others stand by (RabbitMQ single active consumer). */
    public boolean singleActiveConsumer()
    {
        return singleActiveConsumer;
    }

    /** The most ready messages the subscription holds, or {@link #NO_LIMIT}. */
    public long maxLength()
    {
        return maxLength;
    }

    /**
     * The most bytes of ready messages the subscription holds (their records' frame bytes, as {@code ReadyBytes}
     * counts them), or {@link #NO_LIMIT}.
     */
    public long maxBytes()
    {
        return maxBytes;
    }

    public OverflowPolicy overflowPolicy()
    {
        return overflowPolicy;
    }

    public boolean hasOverflowLimit()
    {
        return maxLength != NO_LIMIT || maxBytes != NO_LIMIT;
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
            startPosition.equals(that.startPosition) && groupMode == that.groupMode &&
            groupKeySource == that.groupKeySource && retryPolicy.equals(that.retryPolicy) &&
            messageTtlMillis == that.messageTtlMillis && singleActiveConsumer == that.singleActiveConsumer &&
            maxLength == that.maxLength && maxBytes == that.maxBytes && overflowPolicy == that.overflowPolicy;
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(lockTimeoutMillis, deliveryLimit, deadLetterTopic, retentionMode, startPosition, groupMode,
            groupKeySource, retryPolicy, messageTtlMillis, singleActiveConsumer, maxLength, maxBytes, overflowPolicy);
    }

    @Override
    public String toString()
    {
        return "SubscriptionSettings{lockTimeoutMillis=" + lockTimeoutMillis + ", deliveryLimit=" + deliveryLimit +
            ", deadLetterTopic=" + deadLetterTopic + ", retentionMode=" + retentionMode +
            ", startPosition=" + startPosition + ", groupMode=" + groupMode + ", groupKeySource=" + groupKeySource +
            ", retryPolicy=" + retryPolicy + ", messageTtlMillis=" + messageTtlMillis +
            ", singleActiveConsumer=" + singleActiveConsumer + ", maxLength=" + maxLength + ", maxBytes=" + maxBytes +
            ", overflowPolicy=" + overflowPolicy + '}';
    }

    /** Collects settings; {@link #build()} validates them. Not thread-safe. */
    public static final class Builder
    {
        private long lockTimeoutMillis = DEFAULT_LOCK_TIMEOUT_MILLIS;
        private int deliveryLimit = DEFAULT_DELIVERY_LIMIT;
        private String deadLetterTopic;
        private RetentionMode retentionMode = RetentionMode.WORK_QUEUE;
        private StartPosition startPosition = StartPosition.earliest();
        private GroupMode groupMode = GroupMode.NONE;
        private GroupKeySource groupKeySource = GroupKeySource.HEADER;
        private RetryPolicy retryPolicy = RetryPolicy.NONE;
        private long messageTtlMillis = NO_TTL;
        private boolean singleActiveConsumer;
        private long maxLength = NO_LIMIT;
        private long maxBytes = NO_LIMIT;
        private OverflowPolicy overflowPolicy = OverflowPolicy.DROP_HEAD;

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

        /** Keeps the messages of each group in order (see {@link GroupMode}), the group read from {@code source}. */
        public Builder messageGroups(final GroupMode groupMode, final GroupKeySource source)
        {
            this.groupMode = groupMode;
            this.groupKeySource = source;
            return this;
        }

        public Builder retryPolicy(final RetryPolicy retryPolicy)
        {
            this.retryPolicy = retryPolicy;
            return this;
        }

        /** Every message expires this long after it was published, unless its own {@link QueueHeaders#TTL} is shorter. */
        public Builder messageTtlMillis(final long messageTtlMillis)
        {
            this.messageTtlMillis = messageTtlMillis;
            return this;
        }

        /** One push consumer at a time gets every message; the others wait and take over, in order, when it goes. */
        public Builder singleActiveConsumer(final boolean singleActiveConsumer)
        {
            this.singleActiveConsumer = singleActiveConsumer;
            return this;
        }

        /**
         * Bounds the backlog: at most {@code maxLength} ready messages and {@code maxBytes} bytes of ready messages
         * (each counted as its record's frame in the log: header, key, headers, value and padding to 8 bytes;
         * {@link #NO_LIMIT} for either to leave it open), and what happens past that.
         */
        public Builder overflow(final long maxLength, final long maxBytes, final OverflowPolicy policy)
        {
            this.maxLength = maxLength;
            this.maxBytes = maxBytes;
            this.overflowPolicy = policy;
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
            if (deliveryLimit != UNLIMITED_DELIVERIES && (deliveryLimit < 0 || deliveryLimit > MAX_DELIVERY_LIMIT))
            {
                throw new InvalidSettingsException("delivery limit must be between 0 and " + MAX_DELIVERY_LIMIT +
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
            if (groupMode == null || groupKeySource == null)
            {
                throw new InvalidSettingsException("message groups need a mode (NONE, ORDERED or KEY_STICKY) and a " +
                    "key source (HEADER or RECORD_KEY), was " + groupMode + " and " + groupKeySource);
            }
            if (retryPolicy == null)
            {
                throw new InvalidSettingsException("retry policy must be RetryPolicy.NONE or a ladder, was null");
            }
            if (messageTtlMillis != NO_TTL && (messageTtlMillis < 1 || messageTtlMillis > MAX_TTL_MILLIS))
            {
                throw new InvalidSettingsException("message TTL must be between 1 ms and " + MAX_TTL_MILLIS +
                    " ms, or " + NO_TTL + " for none, was " + messageTtlMillis + " ms");
            }
            if (maxLength != NO_LIMIT && maxLength < 1 || maxBytes != NO_LIMIT && maxBytes < 1 ||
                overflowPolicy == null)
            {
                throw new InvalidSettingsException("overflow needs a max length and max bytes >= 1 (or " + NO_LIMIT +
                    " for none) and a policy, was " + maxLength + " messages, " + maxBytes + " bytes and " +
                    overflowPolicy);
            }
            return new SubscriptionSettings(this);
        }
    }
}
