package io.spool.api.log;

import io.spool.api.SpoolException;

/**
 * A publish refused because the pipeline or a bound on unconfirmed publishes is full; the producer may retry later.
 * Immutable, thread-safe.
 */
public final class BackPressureException extends SpoolException
{
    private static final long serialVersionUID = 1L;

    public BackPressureException(final String message)
    {
        super(message);
    }
}
