package io.spool.api.stream;

/**
 * A topic name, partition count or topic setting broke a rule; the message says which. Immutable, thread-safe.
 */
public final class InvalidTopicException extends StreamException
{
    public InvalidTopicException(final String message)
    {
        super(message);
    }
}
