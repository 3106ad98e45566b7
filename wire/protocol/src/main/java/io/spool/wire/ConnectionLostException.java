package io.spool.wire;

import io.spool.api.SpoolException;

/**
 * The connection closed before the answer came: the request may or may not have been carried out (a publish may
 * be stored). Immutable, thread-safe.
 */
public class ConnectionLostException extends SpoolException
{
    private static final long serialVersionUID = 1L;

    public ConnectionLostException(final String message)
    {
        super(message);
    }
}
