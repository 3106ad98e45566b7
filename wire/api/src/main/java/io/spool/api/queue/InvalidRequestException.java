package io.spool.api.queue;

/**
 * An argument of a queue operation is out of range (a non-positive batch size, a negative consumer id or delay).
 * Immutable and thread-safe.
 */
public final class InvalidRequestException extends QueueException
{
    public InvalidRequestException(final String message)
    {
        super(message);
    }
}
