package io.spool.queue.internal.state;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.DeliveryHandler;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.CachedEpochClock;

import java.util.ArrayList;
import java.util.List;

/**
 * One partition's subscription state in memory, on a clock the test moves, with what it delivered and killed
 * collected for the assertions.
 */
abstract class PartitionStateFixture
{
    static final int CONSUMER = 7;
    static final int OTHER_CONSUMER = 8;

    final CachedEpochClock clock = new CachedEpochClock();
    final List<String> deaths = new ArrayList<>();
    final LongArrayList offsets = new LongArrayList();
    final List<Integer> deliveryNumbers = new ArrayList<>();
    final DeliveryHandler collect = (offset, deliveryNumber) ->
    {
        offsets.addLong(offset);
        deliveryNumbers.add(deliveryNumber);
    };

    SubscriptionPartitionState newState(final SubscriptionSettings settings, final long messages)
    {
        clock.update(1_000_000);
        final SubscriptionPartitionState state = SubscriptionPartitionState.inMemory(3, settings, clock, 0,
            (offset, reason, deliveries) -> deaths.add(offset + ":" + reason.label() + ":" + deliveries));
        state.logEnd(messages);
        return state;
    }

    SubscriptionPartitionState newState(final long messages)
    {
        return newState(SubscriptionSettings.DEFAULT, messages);
    }

    LongArrayList acquire(final SubscriptionPartitionState state, final int max, final int consumer)
    {
        offsets.clear();
        deliveryNumbers.clear();
        state.acquire(max, consumer, collect);
        return offsets;
    }
}
