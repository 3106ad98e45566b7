package io.spool.queue.routing;

import io.spool.api.routing.Exchange;
import io.spool.api.routing.ExchangeType;
import io.spool.api.routing.InvalidRoutingException;
import io.spool.api.routing.UnknownExchangeException;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The declared exchanges and routing through them, alternate exchanges included. Thread-safe.
 */
public final class Exchanges
{
    private final Map<String, Exchange> byName = new ConcurrentHashMap<>();

    /**
     * Declares an exchange; declaring the same name again with the same type and alternate is a no-op.
     *
     * @throws InvalidRoutingException when the name exists with another type or alternate.
     */
    public Exchange declare(final String name, final ExchangeType type, final String alternateExchange)
    {
        final Exchange declared = byName.computeIfAbsent(name, n -> new Exchange(n, type, alternateExchange));
        if (declared.type() != type || !java.util.Objects.equals(declared.alternateExchange(), alternateExchange))
        {
            throw new InvalidRoutingException("exchange '" + name + "' already exists as " + declared.type() +
                (declared.alternateExchange() != null ? " with alternate " + declared.alternateExchange() : "") +
                "; cannot redeclare it as " + type + (alternateExchange != null ? " with alternate " + alternateExchange : ""));
        }
        return declared;
    }

    public Exchange get(final String name)
    {
        final Exchange exchange = byName.get(name);
        if (exchange == null)
        {
            throw new UnknownExchangeException(name);
        }
        return exchange;
    }

    public boolean delete(final String name)
    {
        return byName.remove(name) != null;
    }

    public Collection<Exchange> all()
    {
        return List.copyOf(byName.values());
    }

    /** Removes every binding to a deleted subscription. */
    public void unbindAll(final String subscription)
    {
        for (final Exchange exchange : byName.values())
        {
            exchange.unbindAll(subscription);
        }
    }

    /**
     * Where a message goes: the subscriptions of the first exchange along the alternate chain that matches any.
     *
     * @return the matched subscriptions; empty when the message is unroutable.
     */
    public RouteResult route(final String exchange, final String routingKey, final Map<String, byte[]> headers)
    {
        final List<String> out = new ArrayList<>();
        final List<String> visited = new ArrayList<>();
        String current = exchange;
        Exchange target = get(exchange);
        while (target != null && !visited.contains(current))
        {
            visited.add(current);
            target.route(routingKey, headers, out);
            if (!out.isEmpty())
            {
                return new RouteResult(out, !current.equals(exchange));
            }
            current = target.alternateExchange();
            target = current == null ? null : byName.get(current);
        }
        return new RouteResult(out, false);
    }

    /**
     * The outcome of routing one message. Immutable, thread-safe.
     */
    public static final class RouteResult
    {
        private final List<String> subscriptions;
        private final boolean viaAlternate;

        RouteResult(final List<String> subscriptions, final boolean viaAlternate)
        {
            this.subscriptions = List.copyOf(subscriptions);
            this.viaAlternate = viaAlternate;
        }

        public List<String> subscriptions()
        {
            return subscriptions;
        }

        /** True when no binding of the target exchange matched and an alternate exchange took the message. */
        public boolean viaAlternate()
        {
            return viaAlternate;
        }

        public boolean isUnroutable()
        {
            return subscriptions.isEmpty();
        }
    }
}
