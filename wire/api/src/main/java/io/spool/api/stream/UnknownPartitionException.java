package io.spool.api.stream;

/**
 * An operation named a partition number outside its topic's range. Immutable, thread-safe.
 */
public final class UnknownPartitionException extends StreamException
{
    public UnknownPartitionException(final String message)
    {
        super(message);
    }
}
