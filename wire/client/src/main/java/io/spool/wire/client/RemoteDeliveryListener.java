package io.spool.wire.client;

import io.spool.api.SpoolException;
import io.spool.api.queue.Receipt;

/**
 * Receives a remote push consumer's deliveries, on the connection's thread, one at a time. It must not block: it
 * holds up every other answer on the connection; hand slow work to another thread and settle from there.
 * Called on that one thread only, so implementations need not be thread-safe.
 */
public interface RemoteDeliveryListener
{
    /**
     * Handles one delivery; the view is valid only during the call ({@link RemoteDeliveryView#copy()} keeps it).
     * Settle it through {@code consumer}, now or later; in auto-ack mode it is already settled.
     */
    void onDelivery(RemoteDeliveryView delivery, RemoteQueueConsumer consumer);

    /** A settlement this consumer sent was refused (stale receipt, already settled); the default ignores it. */
    default void onSettlementRefused(final Receipt receipt, final SpoolException error)
    {
    }

    /**
     * This consumer held a delivery past the subscription's lock timeout (see {@link RemoteQueueConsumer#extend}):
     * it went back to the subscription, to be delivered again or dead on its delivery limit, and settling it now is
     * refused as stale. The consumer's other deliveries are untouched. The default ignores it.
     */
    default void onLockExpired(final Receipt receipt)
    {
    }
}
