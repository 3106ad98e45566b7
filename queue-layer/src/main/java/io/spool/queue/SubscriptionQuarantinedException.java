package io.spool.queue;

import io.spool.api.queue.QueueException;

/**
 * A call named a subscription the engine did not open because its state is damaged beyond what the copies rebuild
 * (or its topic is gone); the message says what, and that deleting the subscription clears it. Its files are left
 * untouched. Immutable, thread-safe.
 */
public final class SubscriptionQuarantinedException extends QueueException
{
    private static final long serialVersionUID = 1L;

    public SubscriptionQuarantinedException(final String name, final String reason)
    {
        super("subscription '" + name + "' is quarantined: " + reason + "; the rest of the engine serves. Restore " +
            "its files from a backup and reopen, or delete the subscription and create it again");
    }
}
