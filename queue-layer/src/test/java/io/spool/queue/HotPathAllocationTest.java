package io.spool.queue;

import io.spool.api.queue.GroupKeySource;
import io.spool.api.queue.GroupMode;
import io.spool.api.queue.RetryPolicy;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.internal.state.MessageInspector;
import io.spool.queue.internal.state.SubscriptionPartitionState;
import io.spool.queue.internal.store.SubscriptionStateStore;
import io.spool.testing.SlowTest;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Acquire, ack, nack, extend, lock expiry and journal commits, once warmed up to their working set, allocate
 * nothing: measured with the JVM's per-thread allocation counter over windows of five thousand rounds.
 */
@SlowTest
class HotPathAllocationTest
{
    private static final int BATCH = 100;
    private static final int ROUNDS = 5_000;

    @TempDir
    Path directory;

    /** Collects one batch of deliveries into preallocated arrays. */
    private static final class Batch implements DeliveryHandler
    {
        final long[] offsets = new long[BATCH];
        final int[] deliveryNumbers = new int[BATCH];
        int size;

        @Override
        public void onDelivery(final long offset, final int deliveryNumber)
        {
            offsets[size] = offset;
            deliveryNumbers[size++] = deliveryNumber;
        }
    }

    /** Plain; ordered groups over 64 keys; key-sticky over 64 keys; a retry ladder with every message delayed. */
    @ParameterizedTest
    @ValueSource(strings = {"plain", "ordered", "sticky", "delays"})
    void steadyStateOperationsAllocateNothing(final String mode)
    {
        final CachedEpochClock clock = new CachedEpochClock();
        final SubscriptionSettings.Builder builder = SubscriptionSettings.builder().lockTimeoutMillis(50)
            .deliveryLimit(SubscriptionSettings.UNLIMITED_DELIVERIES);
        MessageInspector inspector = MessageInspector.PLAIN;
        switch (mode)
        {
            case "ordered":
                builder.messageGroups(GroupMode.ORDERED, GroupKeySource.HEADER);
                inspector = (offset, traits) -> traits.clear().group = 1 + (int)(offset & 63);
                break;
            case "sticky":
                builder.messageGroups(GroupMode.KEY_STICKY, GroupKeySource.HEADER);
                inspector = (offset, traits) -> traits.clear().group = 1 + (int)(offset & 63);
                break;
            case "delays":
                builder.retryPolicy(RetryPolicy.ladder(5, 15, 25));
                inspector = (offset, traits) -> traits.clear().deliverAt = clock.time() + 1 + (offset & 7);
                break;
            default:
                break;
        }
        try (SubscriptionStateStore store = SubscriptionStateStore.open(directory, 0, builder.build(), 0, clock,
            StateStoreConfig.DEFAULT.compactionThresholdBytes(StateStoreConfig.MAX_COMPACTION_THRESHOLD_BYTES),
            DeadLetterHandler.NONE))
        {
            final SubscriptionPartitionState state = store.state();
            state.inspector(inspector);
            state.logEnd(Long.MAX_VALUE / 2);
            final Batch batch = new Batch();
            // Long enough for the group maps and owners' queues to reach their working set.
            runRounds(store, state, batch, clock, 4 * ROUNDS);

            final com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
            // A deoptimisation can materialise a few objects the compiler had scalar-replaced; that is the JIT's,
            // not the code's, so the quietest of five windows is the figure.
            long fewest = Long.MAX_VALUE;
            for (int window = 0; window < 5; window++)
            {
                final long before = threads.getCurrentThreadAllocatedBytes();
                runRounds(store, state, batch, clock, ROUNDS);
                final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                System.out.printf(mode + " hot path: %d bytes allocated over %d rounds of acquire %d, ack, nack, extend, " +
                    "expiry and commit%n", allocated, ROUNDS, BATCH);
                fewest = Math.min(fewest, allocated);
            }
            assertThat(fewest).isZero();
        }
    }

    private static void runRounds(
        final SubscriptionStateStore store, final SubscriptionPartitionState state, final Batch batch,
        final CachedEpochClock clock, final int rounds)
    {
        for (int round = 0; round < rounds; round++)
        {
            batch.size = 0;
            final int consumer = round & 3;
            state.acquire(BATCH, consumer, batch);
            for (int i = 0; i < batch.size; i++)
            {
                if (state.holder(batch.offsets[i]) != consumer)
                {
                    // With ordered groups a batch holds runs, and a nack brought back the members after it.
                    continue;
                }
                switch (i & 3)
                {
                    case 0:
                        state.ack(batch.offsets[i], batch.deliveryNumbers[i]);
                        break;
                    case 1:
                        state.nack(batch.offsets[i], batch.deliveryNumbers[i]);
                        break;
                    case 2:
                        state.extend(batch.offsets[i], batch.deliveryNumbers[i], 20);
                        break;
                    default:
                        break;
                }
            }
            store.commit();
            clock.advance(10);
            state.expireDue();
        }
    }
}
