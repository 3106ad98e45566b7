package io.spool.stream;

import io.spool.api.stream.StreamException;

/**
 * A stream-layer metadata file failed its checksum or format check and cannot be trusted. Immutable, thread-safe.
 */
public final class CorruptFileException extends StreamException
{
    public CorruptFileException(final String message)
    {
        super(message);
    }
}
