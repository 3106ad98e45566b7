package io.spool.queue.internal.state;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.StateStoreConfig;
import io.spool.queue.internal.store.JournalDescriptor;
import io.spool.queue.internal.store.SubscriptionStateStore;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A range of acks settles each offset as a single ack would, refusing each bad one with its own reason, and moves
 * the counts, the journal and the ack floor as the acks one by one would have.
 */
class RangeAcksTest
{
    private static final int CONSUMER = 4;
    private static final int OTHER = 5;

    private final CachedEpochClock clock = new CachedEpochClock();
    private final List<String> refused = new ArrayList<>();
    private final RangeAcks.Refusals refusals = (partition, offset, deliveryNumber, error) ->
        refused.add(partition + ":" + offset + "#" + deliveryNumber + " " + error.getClass().getSimpleName());

    private SubscriptionPartitionState newState(final long messages)
    {
        clock.update(1_000_000);
        final SubscriptionPartitionState state = SubscriptionPartitionState.inMemory(2,
            SubscriptionSettings.builder().lockTimeoutMillis(30_000).build(), clock, 0, (offset, reason, n) -> {});
        state.logEnd(messages);
        return state;
    }

    @Test
    void eachOffsetIsAckedOrRefusedOnItsOwnAndTheFloorMovesPastTheRange()
    {
        final SubscriptionPartitionState state = newState(20);
        state.acquire(10, CONSUMER, (offset, deliveryNumber) -> {});
        state.ack(3, 1);
        state.nack(5, 1);
        state.acquire(1, OTHER, (offset, deliveryNumber) -> {});

        state.ackRange(0, 12, 1, ReceiptCheck.ANY_HOLDER, refusals);

        assertThat(refused).containsExactly(
            "2:3#1 AlreadySettledException",
            "2:5#1 StaleReceiptException",
            "2:10#1 UnknownDeliveryException",
            "2:11#1 UnknownDeliveryException");
        assertThat(state.ackFloor()).isEqualTo(5);
        assertThat(state.state(5)).isEqualTo(MessageState.ACQUIRED);
        for (long offset = 6; offset < 10; offset++)
        {
            assertThat(state.state(offset)).isEqualTo(MessageState.ACKED);
        }
        assertThat(state.inFlightOf(CONSUMER)).isZero();
        assertThat(state.inFlightOf(OTHER)).isEqualTo(1);
        assertThat(state.counts().inFlightCount()).isEqualTo(1);
        assertThat(state.counts().timerCount()).isEqualTo(1);
    }

    @Test
    void aConsumersRangeAcksOnlyWhatItHoldsAndRefusesAnotherConsumersDeliveries()
    {
        final SubscriptionPartitionState state = newState(6);
        state.acquire(2, CONSUMER, (offset, deliveryNumber) -> {});
        state.acquire(2, OTHER, (offset, deliveryNumber) -> {});
        state.acquire(2, CONSUMER, (offset, deliveryNumber) -> {});

        state.ackRange(0, 6, 1, CONSUMER, refusals);

        assertThat(refused).containsExactly("2:2#1 UnknownDeliveryException", "2:3#1 UnknownDeliveryException");
        assertThat(state.state(2)).isEqualTo(MessageState.ACQUIRED);
        assertThat(state.holder(3)).isEqualTo(OTHER);
        assertThat(state.state(4)).isEqualTo(MessageState.ACKED);
        assertThat(state.inFlightOf(CONSUMER)).isZero();
        assertThat(state.inFlightOf(OTHER)).isEqualTo(2);
    }

    @Test
    void aLockThatEndedInsideTheRangeIsRefusedAsStaleAndItsMessageComesBack()
    {
        final SubscriptionPartitionState state = newState(4);
        state.acquire(2, CONSUMER, (offset, deliveryNumber) -> {});
        clock.advance(20_000);
        state.acquire(2, OTHER, (offset, deliveryNumber) -> {});
        clock.advance(15_000);

        state.ackRange(0, 4, 1, ReceiptCheck.ANY_HOLDER, refusals);

        assertThat(refused).containsExactly("2:0#1 StaleReceiptException", "2:1#1 StaleReceiptException");
        assertThat(state.state(0)).isEqualTo(MessageState.AVAILABLE);
        assertThat(state.state(2)).isEqualTo(MessageState.ACKED);
        assertThat(state.ackFloor()).isZero();
        assertThat(state.counts().inFlightCount()).isZero();
    }

    @Test
    void theAcksOfARangeAreJournaledAsRangesAroundTheRefusedOffsets(@TempDir final Path directory)
    {
        try (SubscriptionStateStore store = SubscriptionStateStore.open(directory, 2, SubscriptionSettings.DEFAULT, 0,
            clock, StateStoreConfig.DEFAULT, (offset, reason, n) -> {}))
        {
            final SubscriptionPartitionState state = store.state();
            state.logEnd(100);
            state.acquire(100, CONSUMER, (offset, deliveryNumber) -> {});
            state.ack(40, 1);
            store.commit();
            final long before = store.journalBytes();
            state.ackRange(0, 100, 1, ReceiptCheck.ANY_HOLDER, refusals);
            store.commit();
            assertThat(refused).containsExactly("2:40#1 AlreadySettledException");
            assertThat(store.journalBytes() - before).isEqualTo(JournalDescriptor.ENTRY_HEADER_LENGTH + 2 * 12);
        }
        try (SubscriptionStateStore store = SubscriptionStateStore.open(directory, 2, SubscriptionSettings.DEFAULT, 0,
            clock, StateStoreConfig.DEFAULT, (offset, reason, n) -> {}))
        {
            assertThat(store.state().ackFloor()).isEqualTo(100);
        }
    }

    @Test
    void aRangeAcrossPagesAndConsumersIsSettledWholeAndALockThatEndedIsRefusedOffsetByOffset()
    {
        final SubscriptionPartitionState state = newState(3_000);
        state.acquire(1_500, CONSUMER, (offset, deliveryNumber) -> {});
        clock.advance(10_000);
        state.acquire(1_500, OTHER, (offset, deliveryNumber) -> {});
        clock.advance(25_000);

        state.ackRange(1_000, 2_000, 1, ReceiptCheck.ANY_HOLDER, refusals);

        assertThat(refused).hasSize(500).allMatch(refusal -> refusal.endsWith("#1 StaleReceiptException"));
        assertThat(refused.get(0)).startsWith("2:1000#1");
        assertThat(state.ackFloor()).isZero();
        assertThat(state.inFlightOf(CONSUMER)).as("0 to 999, whose locks end at the next expiry").isEqualTo(1_000);
        assertThat(state.inFlightOf(OTHER)).isZero();
        assertThat(state.counts().inFlightCount()).isEqualTo(1_000);
        assertThat(state.counts().timerCount()).isEqualTo(1_000);
        assertThat(state.records().size()).isEqualTo(1_000);
        assertThat(state.counts().readyCount()).as("the refused ones, whose locks ended").isEqualTo(500);
        for (long offset = 1_500; offset < 3_000; offset++)
        {
            assertThat(state.state(offset)).isEqualTo(MessageState.ACKED);
        }
        refused.clear();
        state.ackRange(1_500, 10, 1, ReceiptCheck.ANY_HOLDER, refusals);
        assertThat(refused).hasSize(10).allMatch(refusal -> refusal.endsWith("AlreadySettledException"));
    }
}
