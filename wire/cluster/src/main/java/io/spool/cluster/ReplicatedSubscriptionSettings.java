package io.spool.cluster;

import io.spool.api.InvalidRequestException;
import io.spool.api.queue.SubscriptionSettings;

import java.util.Objects;
import java.util.function.Function;

/**
 * Which subscription settings a replicated subscription honours: the lock timeout, the delivery limit, the
 * dead-letter topic and the retention mode (it holds back no retention, whichever mode, which is what
 * {@code RetentionMode.NONE} asks and what the default asks of no other subscription on a cluster node). Every other
 * setting is refused by name when it is not at its default, rather than ignored, so that no application believes a
 * replicated subscription starts late, bounds, delays, groups or expires its messages when it does not. Stateless.
 */
final class ReplicatedSubscriptionSettings
{
    private static final SubscriptionSettings DEFAULTS = SubscriptionSettings.DEFAULT;

    private ReplicatedSubscriptionSettings()
    {
    }

    /** @throws InvalidRequestException naming the first setting a replicated subscription does not honour. */
    static void check(final SubscriptionSettings settings)
    {
        refuseUnlessDefault(settings, "startPosition", SubscriptionSettings::startPosition);
        refuseUnlessDefault(settings, "groupMode", SubscriptionSettings::groupMode);
        refuseUnlessDefault(settings, "groupKeySource", SubscriptionSettings::groupKeySource);
        refuseUnlessDefault(settings, "retryPolicy", SubscriptionSettings::retryPolicy);
        refuseUnlessDefault(settings, "messageTtlMillis", SubscriptionSettings::messageTtlMillis);
        refuseUnlessDefault(settings, "singleActiveConsumer", SubscriptionSettings::singleActiveConsumer);
        refuseUnlessDefault(settings, "maxLength", SubscriptionSettings::maxLength);
        refuseUnlessDefault(settings, "maxBytes", SubscriptionSettings::maxBytes);
        refuseUnlessDefault(settings, "overflowPolicy", SubscriptionSettings::overflowPolicy);
    }

    private static void refuseUnlessDefault(final SubscriptionSettings settings, final String name,
        final Function<SubscriptionSettings, Object> setting)
    {
        final Object value = setting.apply(settings);
        if (!Objects.equals(value, setting.apply(DEFAULTS)))
        {
            throw new InvalidRequestException("a replicated subscription does not yet support " + name + " (set to " +
                value + "); leave it at its default (" + setting.apply(DEFAULTS) + "), or use a subscription on a " +
                "single node's engine; a replicated subscription honours lockTimeoutMillis, deliveryLimit, " +
                "deadLetterTopic and retentionMode");
        }
    }
}
