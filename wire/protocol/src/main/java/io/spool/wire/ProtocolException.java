package io.spool.wire;

import io.spool.api.SpoolException;

/**
 * A frame broke the protocol: malformed, of a wrong length, too large, of an unknown operation or version, or sent
 * before the handshake. {@link #code()} says which. Immutable, thread-safe.
 */
public final class ProtocolException extends SpoolException
{
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;

    public ProtocolException(final ErrorCode code, final String message)
    {
        super(message);
        this.code = code;
    }

    public ErrorCode code()
    {
        return code;
    }
}
