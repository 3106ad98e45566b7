package io.spool.wire.sqs;

import io.spool.api.queue.SubscriptionMetrics;
import io.spool.api.queue.SubscriptionSettings;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The queue attributes of CreateQueue, SetQueueAttributes and GetQueueAttributes: their names, ranges and defaults,
 * checked as SQS checks them, and how each maps onto the engine. VisibilityTimeout is the subscription's lock
 * timeout and RedrivePolicy its delivery limit (maxReceiveCount - 1) and dead-letter topic; the rest are kept in the
 * queue's {@link QueueDefinition} and applied by the endpoint. Stateless and thread-safe.
 */
final class QueueAttributes
{
    static final String VISIBILITY_TIMEOUT = "VisibilityTimeout";
    static final String MESSAGE_RETENTION_PERIOD = "MessageRetentionPeriod";
    static final String DELAY_SECONDS = "DelaySeconds";
    static final String RECEIVE_MESSAGE_WAIT_TIME_SECONDS = "ReceiveMessageWaitTimeSeconds";
    static final String MAXIMUM_MESSAGE_SIZE = "MaximumMessageSize";
    static final String REDRIVE_POLICY = "RedrivePolicy";
    static final String REDRIVE_ALLOW_POLICY = "RedriveAllowPolicy";
    static final String FIFO_QUEUE = "FifoQueue";
    static final String CONTENT_BASED_DEDUPLICATION = "ContentBasedDeduplication";
    static final String DEDUPLICATION_SCOPE = "DeduplicationScope";
    static final String FIFO_THROUGHPUT_LIMIT = "FifoThroughputLimit";
    static final String POLICY = "Policy";
    static final String SQS_MANAGED_SSE_ENABLED = "SqsManagedSseEnabled";
    static final String KMS_MASTER_KEY_ID = "KmsMasterKeyId";
    static final String KMS_DATA_KEY_REUSE_PERIOD_SECONDS = "KmsDataKeyReusePeriodSeconds";
    /** Kept with the definition: the queue its redrive policy names, which may read a topic of another name. */
    static final String DEAD_LETTER_QUEUE = "spool.DeadLetterQueue";

    static final int DEFAULT_VISIBILITY_TIMEOUT = 30;
    static final int MAX_VISIBILITY_TIMEOUT = 43_200;
    static final int DEFAULT_MAXIMUM_MESSAGE_SIZE = 262_144;
    static final int MAX_MAXIMUM_MESSAGE_SIZE = 1_048_576;
    static final int DEFAULT_RETENTION_PERIOD = 345_600;
    static final int MAX_DELAY_SECONDS = 900;
    static final int MAX_WAIT_TIME_SECONDS = 20;
    static final int MAX_RECEIVE_COUNT = 1_000;

    /** Attributes kept as given, for either kind of queue. */
    private static final Set<String> KEPT = Set.of(MESSAGE_RETENTION_PERIOD, DELAY_SECONDS,
        RECEIVE_MESSAGE_WAIT_TIME_SECONDS, MAXIMUM_MESSAGE_SIZE, REDRIVE_ALLOW_POLICY, POLICY,
        SQS_MANAGED_SSE_ENABLED, KMS_MASTER_KEY_ID, KMS_DATA_KEY_REUSE_PERIOD_SECONDS);
    private static final Set<String> FIFO_ONLY = Set.of(CONTENT_BASED_DEDUPLICATION, DEDUPLICATION_SCOPE,
        FIFO_THROUGHPUT_LIMIT);
    /** What GetQueueAttributes answers for All, in this order; those without a value are left out. */
    private static final List<String> READABLE = List.of("ApproximateNumberOfMessages",
        "ApproximateNumberOfMessagesNotVisible", "ApproximateNumberOfMessagesDelayed", "CreatedTimestamp",
        DELAY_SECONDS, "LastModifiedTimestamp", MAXIMUM_MESSAGE_SIZE, MESSAGE_RETENTION_PERIOD, POLICY, "QueueArn",
        RECEIVE_MESSAGE_WAIT_TIME_SECONDS, REDRIVE_POLICY, REDRIVE_ALLOW_POLICY, VISIBILITY_TIMEOUT,
        SQS_MANAGED_SSE_ENABLED, KMS_MASTER_KEY_ID, KMS_DATA_KEY_REUSE_PERIOD_SECONDS, FIFO_QUEUE,
        CONTENT_BASED_DEDUPLICATION, DEDUPLICATION_SCOPE, FIFO_THROUGHPUT_LIMIT);

    /**
     * Checked attributes of a create or a change.
     *
     * @param kept           attributes for the definition (a null value removes one)
     * @param visibilityMillis the new lock timeout, or null to leave it
     * @param redrive        the new redrive policy, {@link Redrive#NONE} to remove it, or null to leave it
     */
    record Changes(Map<String, String> kept, Long visibilityMillis, Redrive redrive)
    {
    }

    /** A redrive policy: the dead-letter queue and maxReceiveCount. */
    record Redrive(String deadLetterQueue, int maxReceiveCount)
    {
        static final Redrive NONE = new Redrive(null, 0);
    }

    private QueueAttributes()
    {
    }

    /**
     * Checks the attributes given to CreateQueue ({@code creating}) or SetQueueAttributes.
     *
     * @throws SqsException naming the first attribute that is unknown or out of range.
     */
    static Changes check(final Map<String, String> given, final boolean fifo, final boolean creating)
    {
        final Map<String, String> kept = new LinkedHashMap<>();
        Long visibility = null;
        Redrive redrive = null;
        for (final Map.Entry<String, String> attribute : given.entrySet())
        {
            final String name = attribute.getKey();
            final String value = attribute.getValue().trim();
            switch (name)
            {
                case VISIBILITY_TIMEOUT -> visibility = lockMillis(integer(name, value, 0, MAX_VISIBILITY_TIMEOUT));
                case MESSAGE_RETENTION_PERIOD -> kept.put(name, Long.toString(integer(name, value, 60, 1_209_600)));
                case DELAY_SECONDS -> kept.put(name, Long.toString(integer(name, value, 0, MAX_DELAY_SECONDS)));
                case RECEIVE_MESSAGE_WAIT_TIME_SECONDS ->
                    kept.put(name, Long.toString(integer(name, value, 0, MAX_WAIT_TIME_SECONDS)));
                case MAXIMUM_MESSAGE_SIZE ->
                    kept.put(name, Long.toString(integer(name, value, 1_024, MAX_MAXIMUM_MESSAGE_SIZE)));
                case REDRIVE_POLICY -> redrive = value.isEmpty() ? Redrive.NONE : redrivePolicy(value);
                case REDRIVE_ALLOW_POLICY ->
                {
                    if (value.isEmpty())
                    {
                        kept.put(name, null);
                    }
                    else
                    {
                        RedriveAllowance.parse(value);
                        kept.put(name, value);
                    }
                }
                case FIFO_QUEUE -> checkFifoFlag(value, fifo, creating);
                case CONTENT_BASED_DEDUPLICATION -> kept.put(name, Boolean.toString(bool(name, value, fifo)));
                case DEDUPLICATION_SCOPE ->
                {
                    onlyFifo(name, fifo);
                    if (!value.equals("queue"))
                    {
                        throw invalidValue(name, value, "Spool deduplicates per queue only (DeduplicationScope " +
                            "queue); messageGroup scope is not supported");
                    }
                    kept.put(name, value);
                }
                case FIFO_THROUGHPUT_LIMIT ->
                {
                    onlyFifo(name, fifo);
                    if (!value.equals("perQueue") && !value.equals("perMessageGroupId"))
                    {
                        throw invalidValue(name, value, "must be perQueue or perMessageGroupId");
                    }
                    kept.put(name, value);
                }
                case SQS_MANAGED_SSE_ENABLED -> kept.put(name, Boolean.toString(bool(name, value, true)));
                case POLICY, KMS_MASTER_KEY_ID -> kept.put(name, value.isEmpty() ? null : value);
                case KMS_DATA_KEY_REUSE_PERIOD_SECONDS -> kept.put(name, Long.toString(integer(name, value, 60, 86_400)));
                default -> throw SqsError.INVALID_ATTRIBUTE_NAME.with("Unknown Attribute " + name + ".");
            }
        }
        if (creating && fifo && !given.containsKey(FIFO_QUEUE))
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with("The name of a queue ending in .fifo is kept for FIFO " +
                "queues: give the attribute FifoQueue=true to create one.");
        }
        return new Changes(kept, visibility, redrive);
    }

    /** A visibility timeout of 0 is the shortest lock the engine keeps, a millisecond. */
    static long lockMillis(final long seconds)
    {
        return Math.max(1, seconds * 1000);
    }

    private static void checkFifoFlag(final String value, final boolean fifo, final boolean creating)
    {
        if (!creating)
        {
            throw SqsError.INVALID_ATTRIBUTE_NAME.with("FifoQueue can only be set when the queue is created.");
        }
        if (!value.equalsIgnoreCase(Boolean.toString(fifo)))
        {
            throw SqsError.INVALID_PARAMETER_VALUE.with(fifo ?
                "The name of a queue ending in .fifo is kept for FIFO queues: give FifoQueue=true." :
                "The name of a FIFO queue can only include alphanumeric characters, hyphens, or underscores, must " +
                    "end with .fifo suffix and be 1 to 80 in length.");
        }
    }

    private static void onlyFifo(final String name, final boolean fifo)
    {
        if (!fifo)
        {
            throw SqsError.INVALID_ATTRIBUTE_NAME.with("Unknown Attribute " + name + ": it is for FIFO queues only.");
        }
    }

    private static boolean bool(final String name, final String value, final boolean allowed)
    {
        onlyFifo(name, allowed);
        if (!value.equalsIgnoreCase("true") && !value.equalsIgnoreCase("false"))
        {
            throw invalidValue(name, value, "must be true or false");
        }
        return Boolean.parseBoolean(value);
    }

    private static long integer(final String name, final String value, final long min, final long max)
    {
        try
        {
            final long parsed = Long.parseLong(value);
            if (parsed >= min && parsed <= max)
            {
                return parsed;
            }
        }
        catch (final NumberFormatException ignored)
        {
            // refused below
        }
        throw invalidValue(name, value, "must be an integer from " + min + " to " + max);
    }

    static SqsException invalidValue(final String name, final String value, final String reason)
    {
        return SqsError.INVALID_ATTRIBUTE_VALUE.with("Invalid value for the parameter " + name + " (" + value +
            "): " + reason + ".");
    }

    private static Redrive redrivePolicy(final String value)
    {
        final Params policy;
        try
        {
            policy = Params.of(Json.parse(value), REDRIVE_POLICY);
        }
        catch (final SqsException ex)
        {
            throw invalidValue(REDRIVE_POLICY, value, "it is not a JSON object");
        }
        final String target = policy.string("deadLetterTargetArn");
        if (target == null || !policy.has("maxReceiveCount"))
        {
            throw invalidValue(REDRIVE_POLICY, value, "it needs deadLetterTargetArn and maxReceiveCount");
        }
        final long count;
        try
        {
            count = policy.integer("maxReceiveCount", 1, MAX_RECEIVE_COUNT, 0);
        }
        catch (final SqsException ex)
        {
            throw invalidValue(REDRIVE_POLICY, value, "maxReceiveCount must be from 1 to " + MAX_RECEIVE_COUNT);
        }
        return new Redrive(QueueNames.fromArn(target, REDRIVE_POLICY), (int)count);
    }

    /** The RedrivePolicy a subscription's settings stand for, or null without a dead-letter topic. */
    static String redrivePolicy(final SubscriptionSettings settings, final QueueDefinition definition,
        final QueueNames names)
    {
        if (settings.deadLetterTopic() == null || !settings.hasDeliveryLimit())
        {
            return null;
        }
        final String queue = definition.attributes().getOrDefault(DEAD_LETTER_QUEUE, settings.deadLetterTopic());
        final StringBuilder json = new StringBuilder("{\"deadLetterTargetArn\":");
        Json.writeString(json, names.arn(queue));
        return json.append(",\"maxReceiveCount\":").append(settings.deliveryLimit() + 1).append('}').toString();
    }

    /**
     * GetQueueAttributes: the attributes named (All for every one), those without a value left out.
     *
     * @throws SqsException for an unknown name.
     */
    static Map<String, String> describe(final SqsQueue queue, final List<String> asked,
        final Supplier<SubscriptionMetrics> metrics, final QueueNames names)
    {
        final List<String> wanted = new ArrayList<>();
        for (final String name : asked)
        {
            if (name.equals("All"))
            {
                wanted.addAll(READABLE);
            }
            else if (READABLE.contains(name))
            {
                wanted.add(name);
            }
            else
            {
                throw SqsError.INVALID_ATTRIBUTE_NAME.with("Unknown Attribute " + name + ".");
            }
        }
        final Map<String, String> out = new LinkedHashMap<>();
        SubscriptionMetrics counts = null;
        final QueueDefinition definition = queue.definition();
        final SubscriptionSettings settings = queue.subscription().settings();
        for (final String name : wanted)
        {
            final String value;
            if (name.startsWith("ApproximateNumberOfMessages"))
            {
                counts = counts != null ? counts : metrics.get();
                value = Long.toString(name.endsWith("NotVisible") ? counts.inFlight() :
                    name.endsWith("Delayed") ? counts.delayed() : counts.ready());
            }
            else
            {
                value = describeOne(name, queue, definition, settings, names);
            }
            if (value != null)
            {
                out.put(name, value);
            }
        }
        return out;
    }

    private static String describeOne(final String name, final SqsQueue queue, final QueueDefinition definition,
        final SubscriptionSettings settings, final QueueNames names)
    {
        final boolean fifo = definition.fifo();
        return switch (name)
        {
            case "CreatedTimestamp" -> Long.toString(definition.createdSeconds());
            case "LastModifiedTimestamp" -> Long.toString(definition.modifiedSeconds());
            case "QueueArn" -> names.arn(queue.name());
            case VISIBILITY_TIMEOUT -> Long.toString(settings.lockTimeoutMillis() / 1000);
            case REDRIVE_POLICY -> redrivePolicy(settings, definition, names);
            case DELAY_SECONDS -> Integer.toString(definition.delaySeconds());
            case RECEIVE_MESSAGE_WAIT_TIME_SECONDS -> Integer.toString(definition.waitTimeSeconds());
            case MAXIMUM_MESSAGE_SIZE -> Integer.toString(definition.maximumMessageSize());
            case MESSAGE_RETENTION_PERIOD ->
                definition.attributes().getOrDefault(name, Integer.toString(DEFAULT_RETENTION_PERIOD));
            case SQS_MANAGED_SSE_ENABLED -> definition.attributes().getOrDefault(name, "false");
            case FIFO_QUEUE -> fifo ? "true" : null;
            case CONTENT_BASED_DEDUPLICATION -> fifo ? Boolean.toString(definition.contentBasedDeduplication()) : null;
            case DEDUPLICATION_SCOPE -> fifo ? definition.attributes().getOrDefault(name, "queue") : null;
            case FIFO_THROUGHPUT_LIMIT -> fifo ? definition.attributes().getOrDefault(name, "perQueue") : null;
            default -> definition.attributes().get(name);
        };
    }

    /** Whether the kept attribute (of {@link #check}) means the same as the queue's current one, for CreateQueue. */
    static boolean sameAs(final String name, final String value, final QueueDefinition definition)
    {
        final String current = definition.attributes().get(name);
        if (value == null)
        {
            return current == null;
        }
        if (current == null)
        {
            return switch (name)
            {
                case DELAY_SECONDS, RECEIVE_MESSAGE_WAIT_TIME_SECONDS -> value.equals("0");
                case MAXIMUM_MESSAGE_SIZE -> value.equals(Integer.toString(DEFAULT_MAXIMUM_MESSAGE_SIZE));
                case MESSAGE_RETENTION_PERIOD -> value.equals(Integer.toString(DEFAULT_RETENTION_PERIOD));
                case CONTENT_BASED_DEDUPLICATION, SQS_MANAGED_SSE_ENABLED -> value.equals("false");
                default -> false;
            };
        }
        return current.equals(value) || isNumber(current) && isNumber(value) &&
            new BigDecimal(current).compareTo(new BigDecimal(value)) == 0;
    }

    private static boolean isNumber(final String text)
    {
        return !text.isEmpty() && text.chars().allMatch(Character::isDigit);
    }
}
