package io.spool.queue;

/**
 * Base of every error the queue layer raises on a caller mistake or a damaged state file.
 * Immutable and thread-safe.
 * <p>
 * Design note: it stands in for the engine-wide base class of the log store until that one is available, so
 * every queue exception can later be re-parented in one place.
 */
public class QueueException extends RuntimeException
{
    public QueueException(final String message)
    {
        super(message);
    }

    public QueueException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
