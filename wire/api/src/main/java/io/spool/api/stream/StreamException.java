package io.spool.api.stream;

import io.spool.api.SpoolException;

/**
 * Base of the stream layer's errors: each subclass names one caller mistake or one bad state and its message says
 * which. Immutable, thread-safe.
 */
public class StreamException extends SpoolException
{
    public StreamException(final String message)
    {
        super(message);
    }

    public StreamException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
