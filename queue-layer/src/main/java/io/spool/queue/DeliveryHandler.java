package io.spool.queue;

/**
 * Receives each delivery an acquire hands out. Called on the state's owning thread; must not call back into it.
 */
@FunctionalInterface
public interface DeliveryHandler
{
    /**
     * @param offset         the message's offset in the partition.
     * @param deliveryNumber 1 for the first delivery; above 1 means the message is redelivered.
     */
    void onDelivery(long offset, int deliveryNumber);
}
