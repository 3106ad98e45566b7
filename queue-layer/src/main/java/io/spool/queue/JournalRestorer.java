package io.spool.queue;

import org.agrona.collections.Long2LongHashMap;

/**
 * Applies replayed journal entries to a state being restored, collecting delays apart because whether a delay
 * still stands is known only once the whole journal is read. Not thread-safe: used by one restore.
 */
final class JournalRestorer implements StateLog
{
    private final SubscriptionPartitionState state;
    private final Long2LongHashMap delays;

    JournalRestorer(final SubscriptionPartitionState state, final Long2LongHashMap delays)
    {
        this.state = state;
        this.delays = delays;
    }

    @Override
    public void firstDelivery(final long offset)
    {
        state.restoreDelivery(offset, 1);
        delays.remove(offset);
    }

    @Override
    public void redelivery(final long offset, final int deliveryNumber)
    {
        state.restoreDelivery(offset, deliveryNumber);
        delays.remove(offset);
    }

    @Override
    public void acked(final long offset)
    {
        state.restoreSettled(offset, false);
        delays.remove(offset);
    }

    @Override
    public void dead(final long offset, final DeadReason reason)
    {
        state.restoreSettled(offset, true);
        delays.remove(offset);
    }

    @Override
    public void delayed(final long offset, final long untilMillis)
    {
        delays.put(offset, untilMillis);
    }
}
