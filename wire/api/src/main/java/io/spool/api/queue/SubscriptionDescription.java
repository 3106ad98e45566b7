package io.spool.api.queue;

/**
 * A subscription as an operator sees it: the topic it reads, its settings and its backlog now. Immutable,
 * thread-safe.
 */
public record SubscriptionDescription(String name, String topic, SubscriptionSettings settings,
    SubscriptionMetrics metrics)
{
}
