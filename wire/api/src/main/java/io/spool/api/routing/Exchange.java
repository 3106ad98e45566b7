package io.spool.api.routing;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A named exchange: its type, its bindings to subscriptions, and the exchange that takes what matches none.
 * Bindings are replaced copy-on-write, so routing reads them without a lock. Thread-safe.
 */
public final class Exchange
{
    private final String name;
    private final ExchangeType type;
    private final String alternateExchange;
    private volatile List<Binding> bindings = List.of();
    private volatile Map<String, List<String>> directIndex = Map.of();

    public Exchange(final String name, final ExchangeType type, final String alternateExchange)
    {
        this.name = Objects.requireNonNull(name, "name");
        this.type = Objects.requireNonNull(type, "type");
        this.alternateExchange = alternateExchange;
    }

    public String name()
    {
        return name;
    }

    public ExchangeType type()
    {
        return type;
    }

    /** The exchange that receives messages matching no binding here, or null. */
    public String alternateExchange()
    {
        return alternateExchange;
    }

    public List<Binding> bindings()
    {
        return bindings;
    }

    /**
     * @throws InvalidRoutingException when the binding's kind does not fit this exchange's type.
     */
    public synchronized void bind(final Binding binding)
    {
        checkKind(binding);
        if (bindings.contains(binding))
        {
            return;
        }
        final List<Binding> next = new ArrayList<>(bindings);
        next.add(binding);
        publish(next);
    }

    /** @return whether the binding existed. */
    public synchronized boolean unbind(final Binding binding)
    {
        final List<Binding> next = new ArrayList<>(bindings);
        final boolean removed = next.remove(binding);
        publish(next);
        return removed;
    }

    /** Drops every binding to {@code subscription}, as when it is deleted. */
    public synchronized void unbindAll(final String subscription)
    {
        final List<Binding> next = new ArrayList<>(bindings);
        next.removeIf(b -> b.subscription().equals(subscription));
        publish(next);
    }

    private void publish(final List<Binding> next)
    {
        final Map<String, List<String>> index = new HashMap<>();
        if (type == ExchangeType.DIRECT)
        {
            for (final Binding b : next)
            {
                index.computeIfAbsent(b.key(), k -> new ArrayList<>()).add(b.subscription());
            }
        }
        directIndex = index;
        bindings = List.copyOf(next);
    }

    private void checkKind(final Binding binding)
    {
        final boolean fits;
        switch (type)
        {
            case TOPIC:
                fits = binding.pattern() != null;
                break;
            case HEADERS:
                fits = binding.headers() != null;
                break;
            case FANOUT:
                fits = binding.pattern() == null && binding.headers() == null && binding.key().isEmpty();
                break;
            default:
                fits = binding.pattern() == null && binding.headers() == null;
                break;
        }
        if (!fits)
        {
            throw new InvalidRoutingException("binding " + binding + " does not fit " + type + " exchange " + name);
        }
    }

    /**
     * Adds to {@code out} the subscriptions a message with this routing key and these headers reaches here (not
     * following the alternate exchange). A subscription bound twice is added once.
     */
    public void route(final String routingKey, final Map<String, byte[]> headers, final Collection<String> out)
    {
        switch (type)
        {
            case DIRECT:
                for (final String subscription : directIndex.getOrDefault(routingKey, List.of()))
                {
                    addOnce(out, subscription);
                }
                break;
            case FANOUT:
                for (final Binding b : bindings)
                {
                    addOnce(out, b.subscription());
                }
                break;
            case TOPIC:
                for (final Binding b : bindings)
                {
                    if (b.pattern().matches(routingKey))
                    {
                        addOnce(out, b.subscription());
                    }
                }
                break;
            case HEADERS:
                for (final Binding b : bindings)
                {
                    if (b.headers().matches(headers))
                    {
                        addOnce(out, b.subscription());
                    }
                }
                break;
            default:
                throw new IllegalStateException("unknown exchange type " + type);
        }
    }

    private static void addOnce(final Collection<String> out, final String subscription)
    {
        if (!out.contains(subscription))
        {
            out.add(subscription);
        }
    }

    @Override
    public String toString()
    {
        return "Exchange{" + name + ", " + type + ", " + bindings.size() + " bindings" +
            (alternateExchange != null ? ", alternate " + alternateExchange : "") + '}';
    }
}
