package io.spool.api;

/**
 * An operation on a store or log that has been closed or deleted. Immutable, thread-safe.
 */
public final class EngineClosedException extends SpoolException
{
    private static final long serialVersionUID = 1L;

    public EngineClosedException(final String what)
    {
        super(what + " is closed");
    }
}
