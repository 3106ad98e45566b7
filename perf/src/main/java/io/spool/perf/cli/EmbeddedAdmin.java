package io.spool.perf.cli;

import io.spool.Spool;
import io.spool.api.queue.RedriveResult;
import io.spool.api.queue.SubscriptionDescription;
import io.spool.api.queue.SubscriptionMetrics;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.routing.Binding;
import io.spool.api.routing.Exchange;
import io.spool.api.routing.ExchangeType;
import io.spool.api.stream.GroupReport;
import io.spool.api.stream.OffsetSpec;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicDescription;
import io.spool.api.stream.TopicPartition;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@link Admin} on an engine the command opened itself. Not thread-safe. */
final class EmbeddedAdmin implements Admin
{
    private final Spool spool;

    EmbeddedAdmin(final Spool spool)
    {
        this.spool = spool;
    }

    @Override
    public List<String> listTopics()
    {
        return spool.streams().listTopics();
    }

    @Override
    public void createTopic(final String name, final TopicConfig config)
    {
        spool.createTopic(name, config);
    }

    @Override
    public TopicDescription describeTopic(final String name)
    {
        return spool.streams().describeTopic(name);
    }

    @Override
    public void deleteTopic(final String name)
    {
        spool.streams().deleteTopic(name);
    }

    @Override
    public void createSubscription(final String name, final String topic, final SubscriptionSettings settings)
    {
        spool.createSubscription(name, topic, settings);
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
    public void deleteSubscription(final String name)
    {
        spool.deleteSubscription(name);
    }

    @Override
    public List<String> listGroups()
    {
        return spool.streams().listGroups();
    }

    @Override
    public GroupReport describeGroup(final String groupId)
    {
        return spool.streams().describeGroup(groupId);
    }

    @Override
    public Map<TopicPartition, Long> resetOffsets(final String groupId, final String topic,
        final List<Integer> partitions, final OffsetSpec spec, final boolean dryRun)
    {
        return dryRun ? spool.streams().planOffsetReset(groupId, topic, partitions, spec) :
            spool.streams().resetOffsets(groupId, topic, partitions, spec);
    }

    @Override
    public void deleteGroup(final String groupId)
    {
        spool.streams().deleteGroup(groupId);
    }

    @Override
    public void declareExchange(final String name, final ExchangeType type, final String alternateExchange)
    {
        spool.router().declare(name, type, alternateExchange);
    }

    @Override
    public List<Exchange> listExchanges()
    {
        return new ArrayList<>(spool.router().exchanges().all());
    }

    @Override
    public boolean deleteExchange(final String name)
    {
        return spool.router().delete(name);
    }

    @Override
    public Exchange exchange(final String name)
    {
        return spool.router().exchange(name);
    }

    @Override
    public void bind(final String exchange, final Binding binding)
    {
        spool.router().bind(exchange, binding);
    }

    @Override
    public boolean unbind(final String exchange, final Binding binding)
    {
        return spool.router().unbind(exchange, binding);
    }
}
