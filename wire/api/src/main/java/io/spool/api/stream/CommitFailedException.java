package io.spool.api.stream;

/**
 * An offset commit was refused because the committing member does not own the partition in the group's current
 * generation. Immutable, thread-safe.
 */
public final class CommitFailedException extends StreamException
{
    public CommitFailedException(final String message)
    {
        super(message);
    }
}
