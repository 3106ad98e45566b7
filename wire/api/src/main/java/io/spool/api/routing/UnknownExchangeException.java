package io.spool.api.routing;

import io.spool.api.queue.QueueException;

/**
 * A publish, bind or lookup named an exchange that was never declared. Immutable, thread-safe.
 */
public final class UnknownExchangeException extends QueueException
{
    private static final long serialVersionUID = 1L;

    public UnknownExchangeException(final String name)
    {
        super("exchange '" + name + "' does not exist");
    }
}
