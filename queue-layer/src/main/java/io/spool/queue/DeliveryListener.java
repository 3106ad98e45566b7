package io.spool.queue;

import io.spool.api.SpoolException;
import io.spool.api.queue.Receipt;

/**
 * Receives pushed deliveries on the consumer's own thread, one at a time.
 */
public interface DeliveryListener
{
    /**
     * Handles one delivery. Settle it through {@code consumer} (ack, nack, reject), now or later by receipt; in
     * auto-ack mode it is already settled.
     */
    void onDelivery(Delivery delivery, QueueConsumer consumer);

    /**
     * A settlement this consumer sent was refused (a stale receipt, a second ack); the delivery it named is left
     * as it was. The default ignores it.
     */
    default void onSettlementRefused(final Receipt receipt, final SpoolException error)
    {
    }

    /**
     * The consumer held a delivery past the subscription's lock timeout: it went back to the subscription (to be
     * delivered again, or dead on its delivery limit) and settling it now is refused as stale. The consumer's other
     * deliveries are untouched. The default ignores it.
     */
    default void onLockExpired(final Receipt receipt)
    {
    }
}
