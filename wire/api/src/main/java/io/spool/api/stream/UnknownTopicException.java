package io.spool.api.stream;

/**
 * An operation named a topic that does not exist (or no longer exists). Immutable, thread-safe.
 */
public final class UnknownTopicException extends StreamException
{
    public UnknownTopicException(final String message)
    {
        super(message);
    }
}
