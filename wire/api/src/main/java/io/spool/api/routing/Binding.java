package io.spool.api.routing;

import java.util.Objects;

/**
 * A binding of an exchange to a subscription, with what a message must have to reach it: a routing key (direct),
 * a pattern (topic), headers (headers), or nothing (fanout). Immutable, thread-safe.
 */
public final class Binding
{
    private final String subscription;
    private final String key;
    private final TopicPattern pattern;
    private final HeadersMatch headers;

    private Binding(final String subscription, final String key, final TopicPattern pattern, final HeadersMatch headers)
    {
        this.subscription = Objects.requireNonNull(subscription, "subscription");
        this.key = key;
        this.pattern = pattern;
        this.headers = headers;
    }

    public static Binding direct(final String subscription, final String routingKey)
    {
        return new Binding(subscription, Objects.requireNonNull(routingKey, "routingKey"), null, null);
    }

    public static Binding topic(final String subscription, final String pattern)
    {
        return new Binding(subscription, pattern, TopicPattern.compile(pattern), null);
    }

    public static Binding fanout(final String subscription)
    {
        return new Binding(subscription, "", null, null);
    }

    public static Binding headers(final String subscription, final HeadersMatch match)
    {
        return new Binding(subscription, "", null, Objects.requireNonNull(match, "match"));
    }

    public String subscription()
    {
        return subscription;
    }

    /** The routing key or pattern text; empty for fanout and headers bindings. */
    public String key()
    {
        return key;
    }

    public TopicPattern pattern()
    {
        return pattern;
    }

    public HeadersMatch headers()
    {
        return headers;
    }

    @Override
    public boolean equals(final Object o)
    {
        if (!(o instanceof Binding))
        {
            return false;
        }
        final Binding b = (Binding)o;
        return subscription.equals(b.subscription) && key.equals(b.key) && Objects.equals(headers, b.headers);
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(subscription, key);
    }

    @Override
    public String toString()
    {
        return "Binding{" + subscription + ", '" + key + "'" + (headers != null ? ", headers " + headers.mode() : "") + '}';
    }
}
