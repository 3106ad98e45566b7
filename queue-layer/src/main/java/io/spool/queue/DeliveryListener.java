package io.spool.queue;

import io.spool.api.queue.Message;
import io.spool.api.queue.MessageListener;
import io.spool.api.queue.PushConsumer;

/**
 * Receives pushed deliveries on the consumer's own thread, one at a time, typed as the embedded engine's: a
 * {@link Delivery} gives zero-copy access to the stored record. For code that also runs against the client, use
 * {@link MessageListener}; this one is for the embedded engine only.
 */
@FunctionalInterface
public interface DeliveryListener extends MessageListener
{
    /**
     * Handles one delivery. Settle it through {@code consumer} (ack, nack, reject), now or later by receipt; in
     * auto-ack mode it is already settled.
     */
    void onDelivery(Delivery delivery, QueueConsumer consumer);

    /** The embedded engine hands its own types, so the listener sees them as they are. */
    @Override
    default void onMessage(final Message message, final PushConsumer consumer)
    {
        onDelivery((Delivery) message, (QueueConsumer) consumer);
    }
}
