package io.spool.queue;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.internal.state.MessageState;
import io.spool.queue.internal.state.SubscriptionPartitionState;
import io.spool.queue.internal.store.SubscriptionStateStore;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A subscription partition whose read cursor retention passed: the removed range is settled in one step, live and
 * when the journal is replayed, however long it is, and the window never spans it.
 */
class RetentionPassedStateTest
{
    private static final long LOG_START = 100_000_000;
    private static final int CONSUMER = 1;
    /** A window spanning the removed range would need 2^27 slots. */
    private static final int SMALL_WINDOW = 1 << 16;

    @TempDir
    Path directory;

    private final CachedEpochClock clock = new CachedEpochClock();

    @Test
    void aRemovedRangeAboveAHeldMessageIsSettledWhileTheHeldOneStays()
    {
        final SubscriptionPartitionState state = SubscriptionPartitionState.inMemory(0, SubscriptionSettings.DEFAULT,
            clock, 0, DeadLetterHandler.NONE);
        state.logEnd(1_000);
        final LongArrayList held = new LongArrayList();
        state.acquire(1, CONSUMER, (offset, deliveryNumber) -> held.addLong(offset));

        state.logStart(500);

        assertThat(state.readCursor()).isEqualTo(500);
        assertThat(state.ackFloor()).as("the held message keeps the floor").isZero();
        assertThat(state.state(1)).isEqualTo(MessageState.ACKED);
        assertThat(state.counts().readyCount()).isEqualTo(500);
        state.ack(held.getLong(0), 1);
        assertThat(state.ackFloor()).isEqualTo(500);
    }

    @Test
    void aLongRemovedRangeIsPassedInOneStepLiveAndOnReplay()
    {
        try (SubscriptionStateStore store = DefaultStateStores.open(directory, clock))
        {
            final SubscriptionPartitionState state = store.state();
            state.logEnd(LOG_START + 100);
            acquireAndAck(state, 10);
            store.commit();

            state.logStart(LOG_START);
            assertThat(state.readCursor()).isEqualTo(LOG_START);
            assertThat(state.ackFloor()).isEqualTo(LOG_START);
            assertThat(state.counts().ackCount()).as("removed messages are not counted as acks").isEqualTo(10);
            assertThat(acquireAndAck(state, 10)).as("the receive goes on at the log start")
                .startsWith(LOG_START);
            store.commit();
            assertThat(state.window().capacity()).isLessThan(SMALL_WINDOW);
        }

        try (SubscriptionStateStore store = DefaultStateStores.open(directory, clock))
        {
            final SubscriptionPartitionState state = store.state();
            assertThat(state.readCursor()).isEqualTo(LOG_START + 10);
            assertThat(state.ackFloor()).isEqualTo(LOG_START + 10);
            assertThat(state.window().capacity()).as("the replayed range moved the floor, not the window")
                .isLessThan(SMALL_WINDOW);
            state.logEnd(LOG_START + 100);
            assertThat(acquireAndAck(state, 10)).startsWith(LOG_START + 10);
        }
    }

    /** Acquires up to {@code max} messages and acks them; returns their offsets. */
    private static LongArrayList acquireAndAck(final SubscriptionPartitionState state, final int max)
    {
        final LongArrayList delivered = new LongArrayList();
        state.acquire(max, CONSUMER, (offset, deliveryNumber) -> delivered.addLong(offset));
        for (int i = 0; i < delivered.size(); i++)
        {
            state.ack(delivered.getLong(i), 1);
        }
        return delivered;
    }
}
