package io.spool.api.queue;

/**
 * A receipt names a message that is already acknowledged or dead-lettered, for example a second ack.
 * Immutable and thread-safe.
 */
public final class AlreadySettledException extends QueueException
{
    public AlreadySettledException(final String message)
    {
        super(message);
    }
}
