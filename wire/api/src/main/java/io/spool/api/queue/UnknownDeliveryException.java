package io.spool.api.queue;

/**
 * A receipt names a delivery that never happened: an offset never delivered, a delivery number above the latest,
 * or a receipt for another partition. Immutable and thread-safe.
 */
public final class UnknownDeliveryException extends QueueException
{
    public UnknownDeliveryException(final String message)
    {
        super(message);
    }
}
