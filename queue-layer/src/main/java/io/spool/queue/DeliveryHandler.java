package io.spool.queue;

/**
 * Receives each delivery an acquire hands out. Called only on the state's owning thread, so implementations need
 * not be thread-safe; it may read the state (a delivery's first delivery time, say) but must not act on it while
 * the acquire runs (act on the deliveries after acquire returns).
 */
@FunctionalInterface
public interface DeliveryHandler
{
    /**
     * @param offset         the message's offset in the partition.
     * @param deliveryNumber 1 for the first delivery; above 1 means the message is redelivered.
     */
    void onDelivery(long offset, int deliveryNumber);

    /**
     * First deliveries of the {@code count} consecutive offsets from {@code firstOffset} on, all first delivered at
     * {@code firstDeliveryTime}; a handler that takes runs whole saves a call and a look-up per message.
     */
    default void onFirstDeliveries(final long firstOffset, final int count, final long firstDeliveryTime)
    {
        for (long offset = firstOffset, end = firstOffset + count; offset < end; offset++)
        {
            onDelivery(offset, 1);
        }
    }
}
