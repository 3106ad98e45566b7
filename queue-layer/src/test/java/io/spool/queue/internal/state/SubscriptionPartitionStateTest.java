package io.spool.queue.internal.state;

import io.spool.api.queue.AlreadySettledException;
import io.spool.api.InvalidRequestException;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.StaleReceiptException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.queue.UnknownDeliveryException;
import io.spool.queue.DeadLetterHandler;
import org.agrona.collections.LongArrayList;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Taking, settling and refusing deliveries of one partition; consumers, counts and the window. */
class SubscriptionPartitionStateTest extends PartitionStateFixture
{
    @Test
    void theCursorTakesOnlyWhatTheReadAheadFoundPlainAndNeverAStaleMarkOfAnEarlierOffset()
    {
        final SubscriptionPartitionState state = newState(2048);
        // The first 1,024 offsets are plain; the next 1,024, which reuse their marks' slots, went to another
        // subscription through an exchange.
        state.inspector((offset, traits) -> traits.clear().routed = offset < 1024);
        assertThat(state.readAheadForExpiry(1024)).isEqualTo(1024);
        assertThat(acquire(state, 1024, CONSUMER)).hasSize(1024);
        for (long offset = 0; offset < 1024; offset++)
        {
            state.ack(offset, 1);
        }
        assertThat(state.readAheadForExpiry(1024)).isEqualTo(1024);

        assertThat(acquire(state, 1024, CONSUMER)).isEmpty();
        assertThat(state.ackFloor()).isEqualTo(2048);
    }

    @Test
    void plainMessagesTheReadAheadFoundAreTakenTogetherAndTheOthersMetOneByOne()
    {
        final SubscriptionPartitionState state = newState(20);
        final long now = clock.time();
        // 4 is delayed, 7 was routed to another subscription; from 12 on nothing is read ahead yet.
        state.inspector((offset, traits) ->
        {
            traits.clear().routed = offset != 7;
            traits.deliverAt = offset == 4 ? now + 1_000 : 0;
        });
        assertThat(state.readAheadForExpiry(12)).isEqualTo(12);

        assertThat(acquire(state, 15, CONSUMER)).containsExactly(0L, 1L, 2L, 3L, 5L, 6L, 8L, 9L, 10L, 11L, 12L, 13L,
            14L, 15L, 16L);
        assertThat(deliveryNumbers).containsOnly(1);
        assertThat(state.state(4)).isEqualTo(MessageState.DELAYED);
        assertThat(state.state(7)).isEqualTo(MessageState.ACKED);
        assertThat(state.inFlightOf(CONSUMER)).isEqualTo(15);
        assertThat(state.readCursor()).isEqualTo(17);
        for (final long offset : new long[] {0, 11, 16})
        {
            assertThat(state.firstDeliveryTime(offset)).isEqualTo(now);
            assertThat(state.deliveryCount(offset)).isEqualTo(1);
            assertThat(state.holder(offset)).isEqualTo(CONSUMER);
        }
    }

    @Test
    void aCursorThatCaughtUpWithTheReadAheadTakesAPlainRunAsOneAndReadsOnlyTheOthers()
    {
        final SubscriptionPartitionState state = newState(3000);
        final long now = clock.time();
        final LongArrayList inspected = new LongArrayList();
        // Plain but for 2,500, which is delayed; runs are answered as the log answers for header-free records.
        state.inspector(new MessageInspector()
        {
            @Override
            public void inspect(final long offset, final MessageTraits traits)
            {
                inspected.addLong(offset);
                traits.clear().routed = true;
                traits.deliverAt = offset == 2500 ? now + 1_000 : 0;
            }

            @Override
            public int plainRun(final long offset, final int max, final MessageTraits scratch)
            {
                return offset <= 2500 && 2500 < offset + max ? (int)(2500 - offset) : max;
            }
        });

        assertThat(acquire(state, 2000, CONSUMER)).hasSize(2000).startsWith(0L).endsWith(1999L);
        assertThat(acquire(state, 1000, CONSUMER)).hasSize(999).contains(2499L, 2501L, 2999L).doesNotContain(2500L);
        assertThat(inspected).as("only the message that is not plain is read on its own").containsExactly(2500L);
        assertThat(state.state(2500)).isEqualTo(MessageState.DELAYED);
        assertThat(state.readAheadForExpiry(1024)).as("nothing is left to read ahead").isZero();
    }

    @Test
    void acquiresNewOffsetsInOrderUpToTheLogEnd()
    {
        final SubscriptionPartitionState state = newState(5);

        assertThat(acquire(state, 3, CONSUMER)).containsExactly(0L, 1L, 2L);
        assertThat(deliveryNumbers).containsExactly(1, 1, 1);
        assertThat(acquire(state, 10, CONSUMER)).containsExactly(3L, 4L);
        assertThat(acquire(state, 10, CONSUMER)).isEmpty();
        assertThat(state.counts().inFlightCount()).isEqualTo(5);
        assertThat(state.counts().readyCount()).isZero();
        assertThat(state.state(4)).isEqualTo(MessageState.ACQUIRED);
        assertThat(state.holder(4)).isEqualTo(CONSUMER);
        assertThat(state.deadline(4)).isEqualTo(clock.time() + SubscriptionSettings.DEFAULT_LOCK_TIMEOUT_MILLIS);
    }

    @Test
    void ackSettlesAndAdvancesTheFloorPastContiguousAcks()
    {
        final SubscriptionPartitionState state = newState(4);
        acquire(state, 4, CONSUMER);

        state.ack(1, 1);
        assertThat(state.ackFloor()).isZero();
        assertThat(state.state(1)).isEqualTo(MessageState.ACKED);
        state.ack(0, 1);
        assertThat(state.ackFloor()).isEqualTo(2);
        state.reject(2, 1);
        assertThat(state.ackFloor()).isEqualTo(3);
        assertThat(state.counts().inFlightCount()).isEqualTo(1);
    }

    @Test
    void secondAckIsRefusedAsAlreadySettled()
    {
        final SubscriptionPartitionState state = newState(3);
        acquire(state, 3, CONSUMER);
        state.ack(1, 1);

        assertThatThrownBy(() -> state.ack(1, 1))
            .isInstanceOf(AlreadySettledException.class)
            .hasMessageContaining("offset 1").hasMessageContaining("already acknowledged");
        state.ack(0, 1);
        assertThatThrownBy(() -> state.ack(0, 1))
            .isInstanceOf(AlreadySettledException.class).hasMessageContaining("below the ack floor 2");
    }

    @Test
    void ackOfRejectedMessageSaysItWasDeadLettered()
    {
        final SubscriptionPartitionState state = newState(3);
        acquire(state, 3, CONSUMER);
        state.reject(1, 1);

        assertThatThrownBy(() -> state.ack(1, 1))
            .isInstanceOf(AlreadySettledException.class).hasMessageContaining("dead-lettered");
        assertThat(deaths).containsExactly("1:rejected:1");
        assertThat(state.state(1)).isEqualTo(MessageState.DEAD);
        assertThat(state.counts().deadCount()).isEqualTo(1);
    }

    @Test
    void nackReleasesLowestFirstAndRedeliversWithAHigherDeliveryNumber()
    {
        final SubscriptionPartitionState state = newState(6);
        acquire(state, 4, CONSUMER);
        state.nack(3, 1);
        state.nack(1, 1);

        assertThat(state.state(1)).isEqualTo(MessageState.AVAILABLE);
        assertThat(state.counts().oldestReadyOffset()).isEqualTo(1);
        assertThat(acquire(state, 3, OTHER_CONSUMER)).containsExactly(1L, 3L, 4L);
        assertThat(deliveryNumbers).containsExactly(2, 2, 1);
        assertThat(state.counts().redeliveryCount()).isEqualTo(2);
    }

    @Test
    void staleReceiptIsRefusedAndLeavesTheNewerDeliveryAlone()
    {
        final SubscriptionPartitionState state = newState(1);
        acquire(state, 1, CONSUMER);
        state.nack(0, 1);
        acquire(state, 1, OTHER_CONSUMER);

        assertThatThrownBy(() -> state.ack(0, 1))
            .isInstanceOf(StaleReceiptException.class).hasMessageContaining("redelivered since as delivery 2");
        assertThatThrownBy(() -> state.nack(0, 1)).isInstanceOf(StaleReceiptException.class);
        assertThatThrownBy(() -> state.reject(0, 1)).isInstanceOf(StaleReceiptException.class);
        assertThatThrownBy(() -> state.extend(0, 1, 1000)).isInstanceOf(StaleReceiptException.class);
        assertThat(state.state(0)).isEqualTo(MessageState.ACQUIRED);
        assertThat(state.holder(0)).isEqualTo(OTHER_CONSUMER);
        state.ack(0, 2);
        assertThat(state.ackFloor()).isEqualTo(1);
    }

    @Test
    void receiptOfAReleasedDeliveryIsStale()
    {
        final SubscriptionPartitionState state = newState(1);
        acquire(state, 1, CONSUMER);
        state.nack(0, 1);

        assertThatThrownBy(() -> state.ack(0, 1))
            .isInstanceOf(StaleReceiptException.class).hasMessageContaining("available for redelivery");
        assertThat(state.state(0)).isEqualTo(MessageState.AVAILABLE);
    }

    @Test
    void receiptsOfDeliveriesThatNeverHappenedAreUnknown()
    {
        final SubscriptionPartitionState state = newState(5);
        acquire(state, 2, CONSUMER);

        assertThatThrownBy(() -> state.ack(3, 1))
            .isInstanceOf(UnknownDeliveryException.class).hasMessageContaining("never delivered");
        assertThatThrownBy(() -> state.ack(1, 2))
            .isInstanceOf(UnknownDeliveryException.class).hasMessageContaining("latest delivery is 1");
        assertThatThrownBy(() -> state.ack(1, 0)).isInstanceOf(UnknownDeliveryException.class);
        assertThatThrownBy(() -> state.ack(new Receipt(0, 4, 1, 1)))
            .isInstanceOf(UnknownDeliveryException.class).hasMessageContaining("not partition 3");
        state.ack(new Receipt(0, 3, 1, 1));
        assertThat(state.state(1)).isEqualTo(MessageState.ACKED);
    }

    @Test
    void releaseConsumerReturnsOnlyItsDeliveries()
    {
        final SubscriptionPartitionState state = newState(6);
        acquire(state, 3, CONSUMER);
        acquire(state, 3, OTHER_CONSUMER);

        assertThat(state.releaseConsumer(CONSUMER)).isEqualTo(3);
        assertThat(state.counts().inFlightCount()).isEqualTo(3);
        assertThat(state.state(0)).isEqualTo(MessageState.AVAILABLE);
        assertThat(state.state(3)).isEqualTo(MessageState.ACQUIRED);
        assertThat(state.releaseConsumer(CONSUMER)).isZero();
        clock.advance(SubscriptionSettings.DEFAULT_LOCK_TIMEOUT_MILLIS);
        assertThat(state.expireDue()).isEqualTo(3);
    }

    @Test
    void inFlightPerConsumerFollowsEveryWayADeliveryEnds()
    {
        final SubscriptionPartitionState state = newState(
            SubscriptionSettings.builder().lockTimeoutMillis(1_000).build(), 10);
        acquire(state, 5, CONSUMER);
        acquire(state, 3, OTHER_CONSUMER);
        assertThat(state.inFlightOf(CONSUMER)).isEqualTo(5);
        assertThat(state.inFlightOf(OTHER_CONSUMER)).isEqualTo(3);

        state.ack(0, 1);
        state.nack(1, 1);
        state.reject(2, 1);
        state.nackWithDelay(3, 1, 10_000);
        assertThat(state.inFlightOf(CONSUMER)).isEqualTo(1);
        state.releaseConsumer(OTHER_CONSUMER);
        assertThat(state.inFlightOf(OTHER_CONSUMER)).isZero();
        clock.advance(1_000);
        state.expireDue();
        assertThat(state.inFlightOf(CONSUMER)).isZero();
        assertThat(state.inFlightOf(99)).isZero();
    }

    @Test
    void lockExpiryIsReportedWithTheConsumerAndDelivery()
    {
        final SubscriptionPartitionState state = newState(
            SubscriptionSettings.builder().lockTimeoutMillis(1_000).build(), 3);
        final List<String> expired = new ArrayList<>();
        state.lockExpiryHandler((offset, consumer, delivery) -> expired.add(offset + "@" + consumer + "#" + delivery));
        acquire(state, 1, CONSUMER);
        acquire(state, 2, OTHER_CONSUMER);
        state.ack(1, 1);
        clock.advance(1_000);

        assertThat(state.expireDue()).isEqualTo(2);
        assertThat(expired).containsExactlyInAnyOrder("0@7#1", "2@8#1");
        acquire(state, 1, OTHER_CONSUMER);
        clock.advance(1_000);
        assertThatThrownBy(() -> state.ack(0, 2)).isInstanceOf(StaleReceiptException.class);
        assertThat(expired).contains("0@8#2");
    }

    @Test
    void metricsCountReadyInFlightDelayedDeadAndOldestReady()
    {
        final SubscriptionPartitionState state = newState(10);
        assertThat(state.counts().oldestReadyOffset()).isZero();
        acquire(state, 4, CONSUMER);
        state.ack(0, 1);
        state.reject(1, 1);
        state.nackWithDelay(2, 1, 100);

        assertThat(state.counts().readyCount()).isEqualTo(6);
        assertThat(state.counts().inFlightCount()).isEqualTo(1);
        assertThat(state.counts().delayedCount()).isEqualTo(1);
        assertThat(state.counts().deadCount()).isEqualTo(1);
        assertThat(state.counts().oldestReadyOffset()).isEqualTo(4);
        state.nack(3, 1);
        assertThat(state.counts().oldestReadyOffset()).isEqualTo(3);
        acquire(state, 100, CONSUMER);
        assertThat(state.counts().oldestReadyOffset()).isEqualTo(-1);
    }

    @Test
    void windowSlidesAndReusesItsMemory()
    {
        final SubscriptionPartitionState state = newState(1_000_000);
        long footprintAfterWarmUp = 0;
        for (int round = 0; round < 1000; round++)
        {
            acquire(state, 1000, CONSUMER);
            for (int i = 0; i < offsets.size(); i++)
            {
                state.ack(offsets.getLong(i), 1);
            }
            if (round == 10)
            {
                footprintAfterWarmUp = state.counts().footprintBytes();
            }
        }

        assertThat(state.ackFloor()).isEqualTo(1_000_000);
        assertThat(state.counts().footprintBytes()).isEqualTo(footprintAfterWarmUp);
    }

    @Test
    void windowGrowsAroundAStuckMessageAndKeepsEveryState()
    {
        final SubscriptionPartitionState state = newState(10_000);
        acquire(state, 1, CONSUMER);
        for (int i = 0; i < 99; i++)
        {
            acquire(state, 100, OTHER_CONSUMER);
            for (int j = 0; j < offsets.size(); j++)
            {
                final long offset = offsets.getLong(j);
                if (offset % 3 == 0)
                {
                    state.ack(offset, 1);
                }
                else if (offset % 3 == 1)
                {
                    state.reject(offset, 1);
                }
            }
        }

        assertThat(state.ackFloor()).isZero();
        assertThat(state.window().capacity()).isGreaterThanOrEqualTo(9_901);
        assertThat(state.state(0)).isEqualTo(MessageState.ACQUIRED);
        assertThat(state.state(9_000)).isEqualTo(MessageState.ACKED);
        assertThat(state.state(9_001)).isEqualTo(MessageState.DEAD);
        assertThat(state.state(9_002)).isEqualTo(MessageState.ACQUIRED);
        state.ack(0, 1);
        assertThat(state.ackFloor()).isEqualTo(2);
    }

    @Test
    void badArgumentsAreRefusedWithSpecificErrors()
    {
        final SubscriptionPartitionState state = newState(2);
        acquire(state, 1, CONSUMER);

        assertThatThrownBy(() -> state.acquire(0, CONSUMER, collect))
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("max >= 1");
        assertThatThrownBy(() -> state.acquire(1, -1, collect))
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("consumer id >= 0");
        assertThatThrownBy(() -> state.nackWithDelay(0, 1, 0))
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("nack delay");
        assertThatThrownBy(() -> state.extend(0, 1, 0))
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("lock extension");
        assertThatThrownBy(() -> state.logEnd(1))
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("cannot move back");
        assertThatThrownBy(() -> state.state(2))
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("past the log end");
        assertThatThrownBy(() -> state.state(-1))
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("offsets are >= 0");
        assertThatThrownBy(() -> state.ack(-1, 1))
            .isInstanceOf(UnknownDeliveryException.class).hasMessageContaining("never delivered");
        assertThatThrownBy(() -> SubscriptionPartitionState.inMemory(-1, SubscriptionSettings.DEFAULT, clock, 0,
            DeadLetterHandler.NONE)).isInstanceOf(InvalidRequestException.class);
        assertThat(state.state(0)).isEqualTo(MessageState.ACQUIRED);
    }
}
