package io.spool.api.stream;

/**
 * A consumer had no position for a partition and its reset policy is ERROR. Immutable, thread-safe.
 */
public final class NoOffsetForPartitionException extends StreamException
{
    public NoOffsetForPartitionException(final String message)
    {
        super(message);
    }
}
