package io.spool;

import io.spool.api.Admin;
import io.spool.api.MetricSample;
import io.spool.api.queue.RedriveResult;
import io.spool.api.queue.SubscriptionDescription;
import io.spool.api.queue.SubscriptionMetrics;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicDescription;

import java.util.List;

/**
 * The embedded engine's {@link Admin}: each call is the engine's own, so a topic or subscription made here is the
 * one the server serves. Thread-safe, as the engine is.
 */
final class EmbeddedAdmin implements Admin
{
    private final Spool spool;

    EmbeddedAdmin(final Spool spool)
    {
        this.spool = spool;
    }

    @Override
    public void createTopic(final String name, final TopicConfig config)
    {
        spool.createTopic(name, config);
    }

    @Override
    public void deleteTopic(final String name)
    {
        spool.deleteTopic(name);
    }

    @Override
    public void alterTopicRetention(final String name, final long retentionMillis, final long retentionBytes)
    {
        spool.alterTopic(name, describeTopic(name).config().withRetention(retentionMillis, retentionBytes));
    }

    @Override
    public TopicDescription describeTopic(final String name)
    {
        return spool.streams().describeTopic(name);
    }

    @Override
    public List<String> listTopics()
    {
        return spool.streams().listTopics();
    }

    @Override
    public void createSubscription(final String name, final String topic, final SubscriptionSettings settings)
    {
        spool.createSubscription(name, topic, settings);
    }

    @Override
    public void deleteSubscription(final String name)
    {
        spool.deleteSubscription(name);
    }

    @Override
    public List<String> listSubscriptions()
    {
        return spool.subscriptions();
    }

    @Override
    public SubscriptionDescription describeSubscription(final String name)
    {
        return spool.subscription(name).describe();
    }

    @Override
    public SubscriptionMetrics purgeSubscription(final String name)
    {
        final SubscriptionMetrics before = spool.subscription(name).metrics();
        spool.purgeSubscription(name);
        return before;
    }

    @Override
    public RedriveResult redrive(final String subscription, final long fromOffset, final long toOffset)
    {
        return spool.redriver().redriveSubscription(subscription, fromOffset, toOffset);
    }

    @Override
    public List<MetricSample> metrics()
    {
        return spool.metrics();
    }
}
