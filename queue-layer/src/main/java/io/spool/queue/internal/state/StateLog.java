package io.spool.queue.internal.state;

import io.spool.queue.DeadReason;

/**
 * Receives every change of a subscription partition's durable state, in the order it happened, so it can be
 * journaled. Lock holders and lock deadlines are not durable: a restart releases every delivery, like a lost
 * connection. Not thread-safe: called on the state's owning thread.
 */
public interface StateLog
{
    StateLog NONE = new StateLog()
    {
        public void firstDelivery(final long offset, final long timeMillis)
        {
        }

        public void redelivery(final long offset, final int deliveryNumber)
        {
        }

        public void acked(final long offset)
        {
        }

        public void dead(final long offset, final DeadReason reason)
        {
        }

        public void delayed(final long offset, final long untilMillis)
        {
        }

        public void deadLetterDue(final long offset, final DeadReason reason, final int deliveries,
            final long timeMillis)
        {
        }

        public void deadLetterStored(final long offset)
        {
        }
    };

    /** The offset was delivered for the first time, at {@code timeMillis}; every lower offset has been delivered too.
     * */
    void firstDelivery(long offset, long timeMillis);

    /** The {@code count} offsets from {@code from} on were delivered for the first time, all at {@code timeMillis}. */
    default void firstDeliveries(final long from, final int count, final long timeMillis)
    {
        for (long offset = from, end = from + count; offset < end; offset++)
        {
            firstDelivery(offset, timeMillis);
        }
    }

    void redelivery(long offset, int deliveryNumber);

    void acked(long offset);

    /** Acks of the {@code count} offsets from {@code from} on, settled together. */
    default void ackedRange(final long from, final int count)
    {
        for (long offset = from, end = from + count; offset < end; offset++)
        {
            acked(offset);
        }
    }

    void dead(long offset, DeadReason reason);

    void delayed(long offset, long untilMillis);

    /**
     * The dead message at {@code offset} owes a copy to the dead-letter topic, with its death history; journaled in
     * the same commit as its death, so that no crash can leave it dead and its copy never sent.
     */
    void deadLetterDue(long offset, DeadReason reason, int deliveries, long timeMillis);

    /** The dead-letter topic holds the copy of the message at {@code offset} (or it can never be stored). */
    void deadLetterStored(long offset);
}
