package io.spool.api.stream;

/**
 * An operation named a consumer group that has neither members nor committed offsets. Immutable, thread-safe.
 */
public final class UnknownGroupException extends StreamException
{
    public UnknownGroupException(final String message)
    {
        super(message);
    }
}
