package io.spool.api.routing;

import io.spool.api.queue.QueueException;

/**
 * An exchange, binding or pattern that cannot be declared as given: a redeclaration with another type, a binding
 * that does not fit its exchange, a malformed topic pattern or an empty headers match. Immutable and thread-safe.
 */
public final class InvalidRoutingException extends QueueException
{
    private static final long serialVersionUID = 1L;

    public InvalidRoutingException(final String message)
    {
        super(message);
    }
}
