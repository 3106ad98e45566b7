package io.spool.api.queue;

/**
 * A receipt names a delivery that no longer holds the message: it was redelivered since, its lock expired, or it
 * was released or delayed. The newer state of the message is left untouched. Immutable and thread-safe.
 */
public final class StaleReceiptException extends QueueException
{
    public StaleReceiptException(final String message)
    {
        super(message);
    }
}
