package io.spool.wire.kafka;

import io.spool.api.queue.StartPosition;
import io.spool.api.queue.SubscriptionSettings;
import org.apache.kafka.common.errors.InvalidConfigurationException;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Kafka 4.4's share-group settings as a Spool subscription's: the acquisition lock duration is the lock timeout,
 * the delivery count limit the delivery limit (Kafka counts deliveries, Spool the redeliveries after the first, so
 * a Kafka limit of 5 is a Spool limit of 4), the dead-letter queue topic the dead-letter topic, the auto offset
 * reset the start position. A subscription the listener creates for a share group starts from Kafka's defaults
 * (30 s locks, 5 deliveries, latest). Stateless.
 */
final class ShareGroupSettings
{
    static final String LOCK_DURATION = "share.record.lock.duration.ms";
    static final String DELIVERY_COUNT_LIMIT = "share.delivery.count.limit";
    static final String DEAD_LETTER_TOPIC = "errors.deadletterqueue.topic.name";
    static final String AUTO_OFFSET_RESET = "share.auto.offset.reset";
    static final long KAFKA_LOCK_DURATION_MILLIS = 30_000;
    static final int KAFKA_DELIVERY_COUNT_LIMIT = 5;

    private ShareGroupSettings()
    {
    }

    static SubscriptionSettings kafkaDefaults()
    {
        return SubscriptionSettings.builder().lockTimeoutMillis(KAFKA_LOCK_DURATION_MILLIS)
            .deliveryLimit(KAFKA_DELIVERY_COUNT_LIMIT - 1).startPosition(StartPosition.latest()).build();
    }

    /** {@code base} with Kafka-named changes applied; a null value goes back to Kafka's default. */
    static SubscriptionSettings apply(final SubscriptionSettings base, final Map<String, String> changes)
    {
        final SubscriptionSettings defaults = kafkaDefaults();
        final SubscriptionSettings.Builder settings = base.toBuilder();
        for (final Map.Entry<String, String> change : changes.entrySet())
        {
            final String value = change.getValue();
            try
            {
                switch (change.getKey())
                {
                    case LOCK_DURATION -> settings.lockTimeoutMillis(
                        value == null ? defaults.lockTimeoutMillis() : Long.parseLong(value));
                    case DELIVERY_COUNT_LIMIT -> settings.deliveryLimit(
                        value == null ? defaults.deliveryLimit() : Integer.parseInt(value) - 1);
                    case DEAD_LETTER_TOPIC -> settings.deadLetterTopic(value == null || value.isEmpty() ? null : value);
                    case AUTO_OFFSET_RESET -> settings.startPosition(startPosition(value));
                    default -> throw new InvalidConfigurationException("Spool has no share-group setting \"" +
                        change.getKey() + "\"; it has " + LOCK_DURATION + ", " + DELIVERY_COUNT_LIMIT + ", " +
                        DEAD_LETTER_TOPIC + " and " + AUTO_OFFSET_RESET);
                }
            }
            catch (final NumberFormatException ex)
            {
                throw new InvalidConfigurationException(change.getKey() + " must be a number, was \"" + value + "\"");
            }
        }
        try
        {
            return settings.build();
        }
        catch (final RuntimeException ex)
        {
            throw new InvalidConfigurationException(KafkaErrors.message(ex));
        }
    }

    private static StartPosition startPosition(final String value)
    {
        if (value == null || value.equals("latest"))
        {
            return StartPosition.latest();
        }
        if (value.equals("earliest"))
        {
            return StartPosition.earliest();
        }
        throw new InvalidConfigurationException(AUTO_OFFSET_RESET + " must be earliest or latest, was \"" + value + "\"");
    }

    static Map<String, String> describe(final SubscriptionSettings settings)
    {
        final Map<String, String> out = new LinkedHashMap<>();
        out.put(LOCK_DURATION, Long.toString(settings.lockTimeoutMillis()));
        out.put(DELIVERY_COUNT_LIMIT, settings.hasDeliveryLimit() ? Integer.toString(settings.deliveryLimit() + 1) :
            Integer.toString(Integer.MAX_VALUE));
        out.put(DEAD_LETTER_TOPIC, settings.deadLetterTopic() == null ? "" : settings.deadLetterTopic());
        out.put(AUTO_OFFSET_RESET, settings.startPosition().kind() == StartPosition.Kind.EARLIEST ? "earliest" : "latest");
        return out;
    }
}
