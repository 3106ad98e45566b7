package io.spool.api.stream;

/**
 * A consumer group id or group setting broke a rule; the message says which. Immutable, thread-safe.
 */
public final class InvalidGroupException extends StreamException
{
    public InvalidGroupException(final String message)
    {
        super(message);
    }
}
