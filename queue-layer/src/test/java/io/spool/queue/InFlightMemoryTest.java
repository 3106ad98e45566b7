package io.spool.queue;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.internal.state.SubscriptionPartitionState;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Measures the bytes each in-flight message costs from the real capacities of the state's arrays, maps and timer
 * wheel, with a working set of 100,000 messages acquired in batches of 100, one batch per millisecond.
 */
class InFlightMemoryTest
{
    private static final int IN_FLIGHT = 100_000;
    private static final int BATCH = 100;

    @Test
    void inFlightMessageCostsAtMostThirtyTwoBytes()
    {
        final CachedEpochClock clock = new CachedEpochClock();
        final SubscriptionPartitionState state = SubscriptionPartitionState.inMemory(0, SubscriptionSettings.DEFAULT,
            clock, 0, DeadLetterHandler.NONE);
        final long empty = state.counts().footprintBytes();
        state.logEnd(IN_FLIGHT);
        while (state.counts().inFlightCount() < IN_FLIGHT)
        {
            state.acquire(BATCH, 1, (offset, deliveryNumber) -> {});
            clock.advance(1);
        }
        final double bytesPerInFlight =
            (double)(state.counts().footprintBytes() - empty) / state.counts().inFlightCount();

        System.out.printf("in-flight memory: %d messages, %d bytes total, %.2f bytes per in-flight message " +
            "(window %d bytes, records %d bytes, timers %d bytes, %d timers)%n", state.counts().inFlightCount(),
            state.counts().footprintBytes(), bytesPerInFlight, state.window().footprintBytes(),
            state.records().footprintBytes(), state.counts().footprintBytes() - state.window().footprintBytes() -
            state.records().footprintBytes(), state.counts().timerCount());
        assertThat(state.counts().inFlightCount()).isEqualTo(IN_FLIGHT);
        assertThat(bytesPerInFlight).isLessThanOrEqualTo(32.0);
    }

    @Test
    void ackedMessagesGiveTheirRecordPagesBack()
    {
        final CachedEpochClock clock = new CachedEpochClock();
        final SubscriptionPartitionState state = SubscriptionPartitionState.inMemory(0, SubscriptionSettings.DEFAULT,
            clock, 0, DeadLetterHandler.NONE);
        state.logEnd(IN_FLIGHT);
        state.acquire(IN_FLIGHT, 1, (offset, deliveryNumber) -> {});
        final long held = state.records().footprintBytes();
        for (long offset = 0; offset < IN_FLIGHT; offset++)
        {
            state.ack(offset, 1);
        }
        state.logEnd(2 * IN_FLIGHT);
        state.acquire(IN_FLIGHT, 1, (offset, deliveryNumber) -> {});

        assertThat(state.records().size()).isEqualTo(IN_FLIGHT);
        assertThat(state.records().footprintBytes()).isLessThanOrEqualTo(held + 2L * 1024 * 20 + 64);
    }
}
