package io.spool.api.queue;

/**
 * A create named a subscription that already exists. Immutable, thread-safe.
 */
public final class SubscriptionExistsException extends QueueException
{
    private static final long serialVersionUID = 1L;

    public SubscriptionExistsException(final String name, final String topic)
    {
        super("subscription '" + name + "' already exists on topic '" + topic + "'");
    }
}
