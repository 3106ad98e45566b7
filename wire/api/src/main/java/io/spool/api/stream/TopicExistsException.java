package io.spool.api.stream;

/**
 * A topic was created under a name that is already taken. Immutable, thread-safe.
 */
public final class TopicExistsException extends StreamException
{
    public TopicExistsException(final String message)
    {
        super(message);
    }
}
