package io.spool.wire.client;

import io.spool.api.queue.Message;
import io.spool.api.queue.MessageListener;
import io.spool.api.queue.PushConsumer;

/**
 * Receives a remote push consumer's deliveries, on the connection's thread, one at a time, typed as the client's: a
 * {@link RemoteDeliveryView} reads the frame in place. It must not block: it holds up every other answer on the
 * connection; hand slow work to another thread and settle from there. Called on that one thread only, so
 * implementations need not be thread-safe. For code that also runs embedded, use {@link MessageListener}; this one
 * is for the client only.
 */
@FunctionalInterface
public interface RemoteDeliveryListener extends MessageListener
{
    /**
     * Handles one delivery; the view is valid only during the call ({@link RemoteDeliveryView#copy()} keeps it).
     * Settle it through {@code consumer}, now or later; in auto-ack mode it is already settled.
     */
    void onDelivery(RemoteDeliveryView delivery, RemoteQueueConsumer consumer);

    /** The client hands its own types, so the listener sees them as they are. */
    @Override
    default void onMessage(final Message message, final PushConsumer consumer)
    {
        onDelivery((RemoteDeliveryView) message, (RemoteQueueConsumer) consumer);
    }
}
