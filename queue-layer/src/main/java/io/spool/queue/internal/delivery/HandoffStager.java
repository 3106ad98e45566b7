package io.spool.queue.internal.delivery;

import io.spool.queue.DeliveryHandler;
import io.spool.queue.QueueConsumer;
import io.spool.queue.internal.state.SubscriptionPartitionState;

/**
 * Stages what an acquire hands out straight into the hand-off of the push consumer it is for, without collecting it
 * first: a run of first deliveries as one run, any other delivery on its own with its first delivery time looked up.
 * Not thread-safe: owned by the subscription's agent thread.
 */
final class HandoffStager implements DeliveryHandler
{
    private QueueConsumer consumer;
    private SubscriptionPartitionState state;

    /** The consumer the next acquire is for. */
    void to(final QueueConsumer consumer)
    {
        this.consumer = consumer;
    }

    /** The partition state the acquire takes from now. */
    void from(final SubscriptionPartitionState state)
    {
        this.state = state;
    }

    @Override
    public void onDelivery(final long offset, final int deliveryNumber)
    {
        stage(consumer, state, offset, deliveryNumber);
    }

    @Override
    public void onFirstDeliveries(final long firstOffset, final int count, final long firstDeliveryTime)
    {
        consumer.handoff.stage(state.partition(), firstOffset, count, 1, firstDeliveryTime);
    }

    static void stage(final QueueConsumer consumer, final SubscriptionPartitionState state, final long offset,
        final int deliveryNumber)
    {
        consumer.handoff.stage(state.partition(), offset, 1, deliveryNumber, state.firstDeliveryTime(offset));
    }
}
