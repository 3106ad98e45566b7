package io.spool.wire;

/**
 * No connection to the server could be made (refused, no route, timed out), so nothing was sent. Immutable,
 * thread-safe.
 */
public final class ServerUnreachableException extends ConnectionLostException
{
    private static final long serialVersionUID = 1L;

    public ServerUnreachableException(final String message)
    {
        super(message);
    }
}
