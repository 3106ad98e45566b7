package io.spool.queue;

import io.spool.api.queue.QueueException;

/**
 * Reading or writing a subscription state file failed in the operating system (disk full, permissions, a closed
 * store). Immutable and thread-safe.
 */
public final class StateStorageException extends QueueException
{
    public StateStorageException(final String message, final Throwable cause)
    {
        super(message, cause);
    }

    public StateStorageException(final String message)
    {
        super(message);
    }
}
