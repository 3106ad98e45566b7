package io.spool.api.stream;

/**
 * A group member id is not (or no longer) part of its group, for example after its session expired.
 * Immutable, thread-safe.
 */
public final class UnknownMemberException extends StreamException
{
    public UnknownMemberException(final String message)
    {
        super(message);
    }
}
