package io.spool.wire;

import io.spool.api.SpoolException;

/**
 * The server refused the handshake's token and closed the connection. Immutable, thread-safe.
 */
public final class AuthenticationException extends SpoolException
{
    private static final long serialVersionUID = 1L;

    public AuthenticationException(final String message)
    {
        super(message);
    }
}
