package io.spool.perf.cli;

import io.spool.api.routing.Binding;
import io.spool.api.routing.Exchange;
import io.spool.api.routing.ExchangeType;
import io.spool.api.routing.UnknownExchangeException;
import io.spool.api.stream.GroupReport;
import io.spool.api.stream.OffsetSpec;
import io.spool.api.stream.TopicPartition;
import io.spool.wire.client.RemoteExchanges;
import io.spool.wire.client.RemoteGroups;
import io.spool.wire.client.SpoolClient;

import java.util.List;
import java.util.Map;

/** {@link GroupsAndExchanges} on a running server, over one client connection. Not thread-safe. */
final class RemoteGroupsAndExchanges implements GroupsAndExchanges
{
    private final RemoteGroups groups;
    private final RemoteExchanges exchanges;

    RemoteGroupsAndExchanges(final SpoolClient client)
    {
        this.groups = client.groups();
        this.exchanges = client.exchanges();
    }

    @Override
    public List<String> listGroups()
    {
        return groups.list();
    }

    @Override
    public GroupReport describeGroup(final String groupId)
    {
        return groups.describe(groupId);
    }

    @Override
    public Map<TopicPartition, Long> resetOffsets(final String groupId, final String topic,
        final List<Integer> partitions, final OffsetSpec spec, final boolean dryRun)
    {
        return dryRun ? groups.planOffsetReset(groupId, topic, partitions, spec) :
            groups.resetOffsets(groupId, topic, partitions, spec);
    }

    @Override
    public void deleteGroup(final String groupId)
    {
        groups.delete(groupId);
    }

    @Override
    public void declareExchange(final String name, final ExchangeType type, final String alternateExchange)
    {
        exchanges.declare(name, type, alternateExchange);
    }

    @Override
    public List<Exchange> listExchanges()
    {
        return exchanges.list();
    }

    @Override
    public boolean deleteExchange(final String name)
    {
        return exchanges.delete(name);
    }

    @Override
    public Exchange exchange(final String name)
    {
        for (final Exchange exchange : exchanges.list())
        {
            if (exchange.name().equals(name))
            {
                return exchange;
            }
        }
        throw new UnknownExchangeException(name);
    }

    @Override
    public void bind(final String exchange, final Binding binding)
    {
        exchanges.bind(exchange, binding);
    }

    @Override
    public boolean unbind(final String exchange, final Binding binding)
    {
        return exchanges.unbind(exchange, binding);
    }
}
