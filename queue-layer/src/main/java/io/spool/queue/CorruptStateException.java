package io.spool.queue;

import io.spool.api.queue.QueueException;

/**
 * A subscription state file fails its checksum or format check in a place that a torn write cannot explain
 * (a snapshot, or a journal header), so the state cannot be restored exactly. Immutable and thread-safe.
 */
public final class CorruptStateException extends QueueException
{
    public CorruptStateException(final String message)
    {
        super(message);
    }

    public CorruptStateException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
