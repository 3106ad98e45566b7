package io.spool.wire.kafka;

import io.spool.Spool;
import io.spool.api.queue.SubscriptionExistsException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.queue.UnknownSubscriptionException;
import io.spool.queue.Subscription;
import org.apache.kafka.common.errors.InvalidConfigurationException;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Spool subscriptions behind share groups: the share group named G is the subscription named G, made with
 * Kafka's defaults and the settings altered for the group before it existed. Thread-safe.
 */
final class ShareSubscriptions
{
    private final Spool engine;
    private final Map<String, Map<String, String>> pendingSettings = new ConcurrentHashMap<>();

    ShareSubscriptions(final Spool engine)
    {
        this.engine = engine;
    }

    /** The group's subscription, or null when it has none yet. */
    Subscription of(final String group)
    {
        try
        {
            return engine.subscription(group);
        }
        catch (final UnknownSubscriptionException ex)
        {
            return null;
        }
    }

    /** Why the group cannot read {@code topic}: its subscription reads another one. Null when it can. */
    String problemReading(final String group, final String topic)
    {
        final Subscription existing = of(group);
        if (existing != null && !existing.topic().equals(topic))
        {
            return "share group \"" + group + "\" is the Spool subscription of that name, which reads topic \"" +
                existing.topic() + "\", not \"" + topic + "\"";
        }
        return null;
    }

    Subscription ensure(final String group, final String topic)
    {
        final Subscription existing = of(group);
        if (existing != null)
        {
            return existing;
        }
        try
        {
            final Subscription created = engine.createSubscription(group, topic, settingsBeforeCreation(group));
            pendingSettings.remove(group);
            return created;
        }
        catch (final SubscriptionExistsException ex)
        {
            return engine.subscription(group);
        }
    }

    /** Share-group settings for a group: its subscription's, or those set for it before it has one. */
    Map<String, String> describeSettings(final String group)
    {
        final Subscription subscription = of(group);
        return ShareGroupSettings.describe(subscription != null ? subscription.settings() :
            settingsBeforeCreation(group));
    }

    /**
     * Sets share-group settings. Before the group's subscription exists they are kept (in memory) for its
     * creation; once it exists they are Spool's subscription settings, fixed at creation, so only a change to the
     * values it already has is accepted.
     */
    void alterSettings(final String group, final Map<String, String> changes)
    {
        final Subscription subscription = of(group);
        if (subscription == null)
        {
            final Map<String, String> merged = new HashMap<>(pendingSettings.getOrDefault(group, Map.of()));
            merged.putAll(changes);
            ShareGroupSettings.apply(ShareGroupSettings.kafkaDefaults(), merged);
            pendingSettings.put(group, merged);
            return;
        }
        if (!ShareGroupSettings.apply(subscription.settings(), changes).equals(subscription.settings()))
        {
            throw new InvalidConfigurationException("share group \"" + group + "\" is a Spool subscription whose " +
                "settings were fixed when it was created; delete the subscription to start it with new settings");
        }
    }

    private SubscriptionSettings settingsBeforeCreation(final String group)
    {
        return ShareGroupSettings.apply(ShareGroupSettings.kafkaDefaults(), pendingSettings.getOrDefault(group, Map.of()));
    }
}
