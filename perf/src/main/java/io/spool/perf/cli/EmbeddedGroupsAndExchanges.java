package io.spool.perf.cli;

import io.spool.Spool;
import io.spool.api.routing.Binding;
import io.spool.api.routing.Exchange;
import io.spool.api.routing.ExchangeType;
import io.spool.api.stream.GroupReport;
import io.spool.api.stream.OffsetSpec;
import io.spool.api.stream.TopicPartition;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** {@link GroupsAndExchanges} on an engine the command opened itself. Not thread-safe. */
final class EmbeddedGroupsAndExchanges implements GroupsAndExchanges
{
    private final Spool spool;

    EmbeddedGroupsAndExchanges(final Spool spool)
    {
        this.spool = spool;
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
