package io.spool.queue;

import io.spool.queue.internal.state.MessageState;
import io.spool.queue.internal.state.SubscriptionPartitionState;
import io.spool.queue.internal.store.SubscriptionStateStore;

import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Ten million messages, every other one acked and the rest delivered once and still held when the process stops:
 * a restart, from the journal and from a snapshot, restores exactly that state (the held ones available again with
 * one delivery counted). Prints the state's size on disk and in memory.
 */
class ScatteredAckRestartTest
{
    private static final long MESSAGES = 10_000_000;
    private static final int CHUNK = 100_000;
    private static final int CONSUMER = 1;

    @TempDir
    Path directory;

    private final CachedEpochClock clock = new CachedEpochClock();

    @Test
    void everyOtherAckOfTenMillionSurvivesRestartExactly()
    {
        try (SubscriptionStateStore store = DefaultStateStores.open(directory, clock))
        {
            final SubscriptionPartitionState state = store.state();
            state.logEnd(MESSAGES);
            final LongArrayList delivered = new LongArrayList(CHUNK, -1);
            while (state.readCursor() < MESSAGES)
            {
                delivered.clear();
                state.acquire(CHUNK, CONSUMER, (offset, deliveryNumber) -> delivered.addLong(offset));
                for (int i = 0; i < delivered.size(); i++)
                {
                    if ((delivered.getLong(i) & 1) == 0)
                    {
                        state.ack(delivered.getLong(i), 1);
                    }
                }
                store.commit();
            }
            assertThat(state.counts().inFlightCount()).isEqualTo(MESSAGES / 2);
            System.out.printf("10M messages, every other acked, the rest held: %d bytes in memory%n",
                state.counts().footprintBytes());
        }

        try (SubscriptionStateStore store = DefaultStateStores.open(directory, clock))
        {
            assertEveryOtherAcked(store.state());
            final long journalBytes = store.journalBytes();
            store.snapshot();
            System.out.printf("10M messages, every other acked: journal %d bytes before compaction; after it " +
                "snapshot %d bytes + journal %d bytes on disk; %d bytes in memory%n", journalBytes,
                store.snapshotBytes(), store.journalBytes(), store.state().counts().footprintBytes());
            assertThat(store.snapshotBytes()).isLessThan(200);
        }

        try (SubscriptionStateStore store = DefaultStateStores.open(directory, clock))
        {
            assertEveryOtherAcked(store.state());
            assertThat(store.state().counts().footprintBytes()).isLessThan(24L * 1024 * 1024);
        }
    }

    @Test
    void randomlyScatteredAcksAndCountsSurviveASnapshotExactly()
    {
        final int messages = 1_000_000;
        final SplittableRandom random = new SplittableRandom(42);
        final boolean[] acked = new boolean[messages];
        final int[] counts = new int[messages];
        try (SubscriptionStateStore store = DefaultStateStores.open(directory, clock))
        {
            final SubscriptionPartitionState state = store.state();
            state.logEnd(messages);
            for (int round = 0; round < 3; round++)
            {
                final LongArrayList delivered = new LongArrayList();
                state.acquire(messages, CONSUMER + round, (offset, deliveryNumber) ->
                {
                    counts[(int)offset] = deliveryNumber;
                    delivered.addLong(offset);
                });
                for (int i = 0; i < delivered.size(); i++)
                {
                    final int offset = (int)delivered.getLong(i);
                    if (random.nextInt(4) == 0)
                    {
                        state.ack(offset, counts[offset]);
                        acked[offset] = true;
                    }
                }
                state.releaseConsumer(CONSUMER + round);
                store.commit();
            }
            store.snapshot();
            System.out.printf("1M messages, random acks and delivery counts: snapshot %d bytes; %d bytes in " +
                "memory%n", store.snapshotBytes(), state.counts().footprintBytes());
        }
        try (SubscriptionStateStore store = DefaultStateStores.open(directory, clock))
        {
            final SubscriptionPartitionState state = store.state();
            for (int offset = 0; offset < messages; offset++)
            {
                if (acked[offset])
                {
                    assertThat(state.state(offset)).isEqualTo(MessageState.ACKED);
                }
                else if (state.state(offset) != MessageState.AVAILABLE || state.deliveryCount(offset) != counts[offset])
                {
                    assertThat(state.state(offset) + "#" + state.deliveryCount(offset))
                        .as("offset %d", offset).isEqualTo("AVAILABLE#" + counts[offset]);
                }
            }
        }
    }

    private static void assertEveryOtherAcked(final SubscriptionPartitionState state)
    {
        assertThat(state.ackFloor()).isEqualTo(1);
        assertThat(state.readCursor()).isEqualTo(MESSAGES);
        assertThat(state.counts().readyCount()).isEqualTo(MESSAGES / 2);
        long wrong = 0;
        for (long offset = 0; offset < MESSAGES; offset++)
        {
            final boolean ok = (offset & 1) == 0 ? state.state(offset) == MessageState.ACKED :
                state.state(offset) == MessageState.AVAILABLE && state.deliveryCount(offset) == 1;
            if (!ok)
            {
                wrong++;
            }
        }
        assertThat(wrong).as("offsets not in their expected state").isZero();
    }
}
