package io.spool.perf.cli;

import io.spool.api.routing.Binding;
import io.spool.api.routing.Exchange;
import io.spool.api.routing.ExchangeType;
import io.spool.api.stream.GroupReport;
import io.spool.api.stream.OffsetSpec;
import io.spool.api.stream.TopicPartition;

import java.util.List;
import java.util.Map;

/**
 * What the admin commands do to consumer groups, exchanges and bindings, beyond the topics and subscriptions of
 * {@link io.spool.api.Admin}. One implementation calls an engine the command opened on a data directory, the other a
 * server over its client; both throw the engine's exceptions ({@code UnknownGroupException},
 * {@code UnknownExchangeException}, ...), so a command is written once for both. Not thread-safe: one command uses
 * it from one thread.
 */
interface GroupsAndExchanges
{
    List<String> listGroups();

    GroupReport describeGroup(String groupId);

    /** Commits (or with {@code dryRun} only works out) the offsets {@code spec} names; returns them. */
    Map<TopicPartition, Long> resetOffsets(String groupId, String topic, List<Integer> partitions, OffsetSpec spec,
        boolean dryRun);

    void deleteGroup(String groupId);

    /** Declares an exchange; the same declaration again is a no-op, a different one is refused. */
    void declareExchange(String name, ExchangeType type, String alternateExchange);

    /** Every exchange with its bindings. */
    List<Exchange> listExchanges();

    /** @return whether the exchange existed. */
    boolean deleteExchange(String name);

    /**
     * The exchange with its bindings.
     *
     * @throws io.spool.api.routing.UnknownExchangeException when there is no exchange of that name.
     */
    Exchange exchange(String name);

    void bind(String exchange, Binding binding);

    /** @return whether the binding existed. */
    boolean unbind(String exchange, Binding binding);
}
