package io.spool.api.queue;

/**
 * A call named a subscription that does not exist. Immutable, thread-safe.
 */
public final class UnknownSubscriptionException extends QueueException
{
    private static final long serialVersionUID = 1L;

    public UnknownSubscriptionException(final String name)
    {
        super("subscription '" + name + "' does not exist");
    }
}
