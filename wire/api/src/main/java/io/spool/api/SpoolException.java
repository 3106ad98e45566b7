package io.spool.api;

/**
 * The root of every error Spool reports to a caller; each subclass names one kind of mistake or failure and its
 * message says what was wrong. Immutable, thread-safe.
 */
public class SpoolException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    public SpoolException(final String message)
    {
        super(message);
    }

    public SpoolException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
