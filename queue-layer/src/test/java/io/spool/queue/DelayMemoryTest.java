package io.spool.queue;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.internal.state.SubscriptionPartitionState;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Measures what each delayed message costs a subscription partition, from the real capacities of its arrays, maps
 * and timer wheel: 100,000 messages published at 1,000 a second, each delayed by a random time of up to 10
 * minutes (Pulsar's in-memory delayed delivery tracker costs about 24 bytes each, per subscription).
 */
class DelayMemoryTest
{
    private static final int DELAYED = 100_000;
    private static final long MAX_DELAY_MILLIS = 600_000;

    @Test
    void reportsBytesPerDelayedMessage()
    {
        final CachedEpochClock clock = new CachedEpochClock();
        clock.update(1_000_000);
        final SubscriptionPartitionState state = SubscriptionPartitionState.inMemory(0, SubscriptionSettings.DEFAULT,
            clock, 0, DeadLetterHandler.NONE);
        final SplittableRandom random = new SplittableRandom(42);
        final long[] deliverAt = new long[DELAYED];
        for (int i = 0; i < DELAYED; i++)
        {
            deliverAt[i] = clock.time() + i / 1_000 + 1 + random.nextLong(MAX_DELAY_MILLIS);
        }
        state.inspector((offset, traits) -> traits.clear().deliverAt = deliverAt[(int)offset]);
        final long empty = state.counts().footprintBytes();
        state.logEnd(DELAYED);
        while (state.readCursor() < DELAYED)
        {
            assertThat(state.acquire(100, 1, (offset, deliveryNumber) -> {})).isZero();
        }
        final double bytesPerDelayed =
            (double)(state.counts().footprintBytes() - empty) / state.counts().delayedCount();

        System.out.printf("delay memory: %d delayed messages, %.2f bytes each (records %d bytes, %d timers)%n",
            state.counts().delayedCount(), bytesPerDelayed, state.records().footprintBytes(),
            state.counts().timerCount());
        assertThat(state.counts().delayedCount()).isEqualTo(DELAYED);
        assertThat(bytesPerDelayed).isLessThanOrEqualTo(32.0);
    }
}
