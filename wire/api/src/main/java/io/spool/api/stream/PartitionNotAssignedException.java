package io.spool.api.stream;

/**
 * A consumer was asked to seek, commit or read a partition it is not assigned. Immutable, thread-safe.
 */
public final class PartitionNotAssignedException extends StreamException
{
    public PartitionNotAssignedException(final String message)
    {
        super(message);
    }
}
