package io.spool.api.queue;

/**
 * A publish was refused because a subscription of the topic holds as many messages (or bytes) as its overflow
 * limit allows, under {@link OverflowPolicy#REJECT_PUBLISH} or {@link OverflowPolicy#REJECT_PUBLISH_DLX}. Nothing
 * was stored: retry after consumers have caught up. Immutable and thread-safe.
 */
public final class QueueFullException extends QueueException
{
    private static final long serialVersionUID = 1L;

    private final String subscription;

    public QueueFullException(final String subscription, final String message)
    {
        super(message);
        this.subscription = subscription;
    }

    /** The subscription that is full. */
    public String subscription()
    {
        return subscription;
    }
}
