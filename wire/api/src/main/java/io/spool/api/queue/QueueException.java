package io.spool.api.queue;

import io.spool.api.SpoolException;

/**
 * Base of every error the queue layer raises on a caller mistake or a damaged state file.
 * Immutable and thread-safe.
 */
public class QueueException extends SpoolException
{
    private static final long serialVersionUID = 1L;

    public QueueException(final String message)
    {
        super(message);
    }

    public QueueException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
