package io.spool.perf.cli;

import io.spool.api.queue.GroupKeySource;
import io.spool.api.queue.GroupMode;
import io.spool.api.queue.InvalidSettingsException;
import io.spool.api.queue.OverflowPolicy;
import io.spool.api.queue.RetentionMode;
import io.spool.api.queue.RetryPolicy;
import io.spool.api.queue.StartPosition;
import io.spool.api.queue.SubscriptionSettings;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;

/**
 * Every setting of a subscription {@code spool subscriptions create} takes; each left out keeps the engine's
 * default. Not thread-safe.
 */
final class SubscriptionSettingsOptions
{
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--lock-timeout", paramLabel = "DURATION", converter = Quantities.Millis.class,
        description = "How long a delivery stays locked before it goes back (default: 30s, at most 12h).")
    Long lockTimeoutMillis;

    @Option(names = "--delivery-limit", paramLabel = "N",
        description = "Deliveries before a message is dead, or unlimited (default: 20; 0 delivers once).")
    String deliveryLimit;

    @Option(names = "--dead-letter-topic", paramLabel = "TOPIC",
        description = "Where dead messages go (default: dropped).")
    String deadLetterTopic;

    @Option(names = "--retention-mode", paramLabel = "MODE",
        description = "work-queue (default: the topic's records go once every such subscription acked them) or none.")
    String retentionMode;

    @Option(names = "--start", paramLabel = "POSITION",
        description = {"Where the subscription starts: earliest (default), latest, offset:N,",
            "or timestamp:T with T epoch milliseconds or an ISO-8601 instant (2026-01-31T12:00:00Z)."})
    String start;

    @Option(names = "--groups", paramLabel = "MODE",
        description = "Message groups: none (default), ordered (one message of a group at a time) or key-sticky.")
    String groups;

    @Option(names = "--group-key", paramLabel = "SOURCE",
        description = "What names a message's group: header (x-group-id, default) or record-key.")
    String groupKey;

    @Option(names = "--ttl", paramLabel = "DURATION", converter = Quantities.Millis.class,
        description = "Dead-letter a message not acked within this long of its publish (default: none).")
    Long ttlMillis;

    @Option(names = "--single-active-consumer",
        description = "Deliver to one push consumer at a time; the others wait to take over.")
    boolean singleActiveConsumer;

    @Option(names = "--max-length", paramLabel = "N",
        description = "Most ready messages the subscription keeps, or none (default).")
    String maxLength;

    @Option(names = "--max-bytes", paramLabel = "SIZE", converter = Quantities.BytesOrNone.class,
        description = "Most bytes of ready messages, as 1GiB, or none (default).")
    Long maxBytes;

    @Option(names = "--overflow", paramLabel = "POLICY",
        description = "Past --max-length or --max-bytes: drop-head (default), reject-publish or reject-publish-dlx.")
    String overflow;

    @Option(names = "--retry", paramLabel = "DURATION", split = ",", converter = Quantities.Millis.class,
        description = "A retry ladder: a nacked message waits each delay in turn, as 1s,10s,1m (default: none).")
    List<Long> retryMillis;

    /**
     * @throws ParameterException naming the setting when a value is malformed or out of range, before anything is
     *                            opened.
     */
    SubscriptionSettings settings()
    {
        final CommandLine commandLine = spec.commandLine();
        final SubscriptionSettings.Builder builder = SubscriptionSettings.builder();
        try
        {
            if (lockTimeoutMillis != null)
            {
                builder.lockTimeoutMillis(lockTimeoutMillis);
            }
            if (deliveryLimit != null)
            {
                builder.deliveryLimit(deliveryLimit.equalsIgnoreCase("unlimited") ?
                    SubscriptionSettings.UNLIMITED_DELIVERIES :
                    (int)Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, number("--delivery-limit",
                        deliveryLimit))));
            }
            builder.deadLetterTopic(deadLetterTopic);
            if (retentionMode != null)
            {
                builder.retentionMode(Choices.parse(commandLine, "--retention-mode", retentionMode,
                    RetentionMode.values()));
            }
            if (start != null)
            {
                builder.startPosition(startPosition());
            }
            builder.messageGroups(
                groups == null ? GroupMode.NONE : Choices.parse(commandLine, "--groups", groups, GroupMode.values()),
                groupKey == null ? GroupKeySource.HEADER :
                    Choices.parse(commandLine, "--group-key", groupKey, GroupKeySource.values()));
            if (ttlMillis != null)
            {
                builder.messageTtlMillis(ttlMillis);
            }
            builder.singleActiveConsumer(singleActiveConsumer);
            builder.overflow(
                maxLength == null || maxLength.equalsIgnoreCase("none") ? SubscriptionSettings.NO_LIMIT :
                    number("--max-length", maxLength),
                maxBytes == null ? SubscriptionSettings.NO_LIMIT : maxBytes,
                overflow == null ? OverflowPolicy.DROP_HEAD :
                    Choices.parse(commandLine, "--overflow", overflow, OverflowPolicy.values()));
            if (retryMillis != null && !retryMillis.isEmpty())
            {
                builder.retryPolicy(RetryPolicy.ladder(retryMillis.stream().mapToLong(Long::longValue).toArray()));
            }
            return builder.build();
        }
        catch (final InvalidSettingsException ex)
        {
            throw new ParameterException(commandLine, ex.getMessage());
        }
    }

    private StartPosition startPosition()
    {
        final String position = start.trim();
        if (position.equalsIgnoreCase("earliest"))
        {
            return StartPosition.earliest();
        }
        if (position.equalsIgnoreCase("latest"))
        {
            return StartPosition.latest();
        }
        if (position.startsWith("offset:"))
        {
            return StartPosition.offset(number("--start offset", position.substring("offset:".length())));
        }
        if (position.startsWith("timestamp:"))
        {
            return StartPosition.timestamp(epochMillis(spec.commandLine(), "--start",
                position.substring("timestamp:".length())));
        }
        throw new ParameterException(spec.commandLine(), "--start: '" + start +
            "' is not earliest, latest, offset:N or timestamp:T");
    }

    /** Out of range for its setting is the engine's to say, so that the message names the range. */
    private long number(final String option, final String text)
    {
        try
        {
            return Long.parseLong(text.trim());
        }
        catch (final NumberFormatException ex)
        {
            throw new ParameterException(spec.commandLine(), option + ": '" + text + "' is not a whole number");
        }
    }

    /**
     * Epoch milliseconds, or an ISO-8601 instant.
     *
     * @throws ParameterException naming {@code option} when {@code text} is neither.
     */
    static long epochMillis(final CommandLine commandLine, final String option, final String text)
    {
        try
        {
            return Long.parseLong(text.trim());
        }
        catch (final NumberFormatException notMillis)
        {
            try
            {
                return Instant.parse(text.trim()).toEpochMilli();
            }
            catch (final DateTimeParseException notInstant)
            {
                throw new ParameterException(commandLine, option + ": '" + text + "' is neither epoch " +
                    "milliseconds nor an ISO-8601 instant such as 2026-01-31T12:00:00Z");
            }
        }
    }
}
