package io.spool.queue.internal.state;

import io.spool.api.queue.AlreadySettledException;
import io.spool.api.InvalidRequestException;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.StaleReceiptException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.queue.UnknownDeliveryException;
import io.spool.queue.DeadLetterHandler;
import io.spool.queue.DeliveryHandler;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SubscriptionPartitionStateTest
{
    private static final int CONSUMER = 7;
    private static final int OTHER_CONSUMER = 8;

    private final CachedEpochClock clock = new CachedEpochClock();
    private final List<String> deaths = new ArrayList<>();
    private final LongArrayList offsets = new LongArrayList();
    private final List<Integer> deliveryNumbers = new ArrayList<>();
    private final DeliveryHandler collect = (offset, deliveryNumber) ->
    {
        offsets.addLong(offset);
        deliveryNumbers.add(deliveryNumber);
    };

    private SubscriptionPartitionState newState(final SubscriptionSettings settings, final long messages)
    {
        clock.update(1_000_000);
        final SubscriptionPartitionState state = SubscriptionPartitionState.inMemory(3, settings, clock, 0,
            (offset, reason, deliveries) -> deaths.add(offset + ":" + reason.label() + ":" + deliveries));
        state.logEnd(messages);
        return state;
    }

    private SubscriptionPartitionState newState(final long messages)
    {
        return newState(SubscriptionSettings.DEFAULT, messages);
    }

    private LongArrayList acquire(final SubscriptionPartitionState state, final int max, final int consumer)
    {
        offsets.clear();
        deliveryNumbers.clear();
        state.acquire(max, consumer, collect);
        return offsets;
    }

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
    void lockExpiryOnTheTimerWheelReleasesAsRedelivered()
    {
        final SubscriptionPartitionState state = newState(
            SubscriptionSettings.builder().lockTimeoutMillis(2_000).build(), 3);
        acquire(state, 2, CONSUMER);
        clock.advance(1_000);
        acquire(state, 1, CONSUMER);

        clock.advance(999);
        assertThat(state.expireDue()).isZero();
        clock.advance(1);
        assertThat(state.expireDue()).isEqualTo(2);
        assertThat(state.state(0)).isEqualTo(MessageState.AVAILABLE);
        assertThat(state.state(2)).isEqualTo(MessageState.ACQUIRED);
        assertThatThrownBy(() -> state.ack(0, 1)).isInstanceOf(StaleReceiptException.class);
        clock.advance(1_000);
        assertThat(state.expireDue()).isEqualTo(1);
        assertThat(acquire(state, 5, OTHER_CONSUMER)).containsExactly(0L, 1L, 2L);
        assertThat(deliveryNumbers).containsExactly(2, 2, 2);
    }

    @Test
    void lateAckAfterTheDeadlineIsStaleEvenBeforeTheTimersRan()
    {
        final SubscriptionPartitionState state = newState(
            SubscriptionSettings.builder().lockTimeoutMillis(100).build(), 1);
        acquire(state, 1, CONSUMER);
        clock.advance(100);

        assertThatThrownBy(() -> state.ack(0, 1))
            .isInstanceOf(StaleReceiptException.class).hasMessageContaining("lock expired at");
        assertThat(state.state(0)).isEqualTo(MessageState.AVAILABLE);
        assertThat(state.expireDue()).isZero();
    }

    @Test
    void acquireCanAskForItsOwnLock()
    {
        final SubscriptionPartitionState state = newState(2);
        state.acquire(1, CONSUMER, 500, collect);
        state.acquire(1, CONSUMER, collect);

        assertThat(state.deadline(0)).isEqualTo(clock.time() + 500);
        assertThat(state.deadline(1)).isEqualTo(clock.time() + SubscriptionSettings.DEFAULT_LOCK_TIMEOUT_MILLIS);
        clock.advance(500);
        assertThat(state.expireDue()).isEqualTo(1);
        assertThatThrownBy(() -> state.acquire(1, CONSUMER, 0, collect))
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("lock 0 ms");
        assertThatThrownBy(() -> state.acquire(1, CONSUMER, SubscriptionSettings.MAX_LOCK_TIMEOUT_MILLIS + 1, collect))
            .isInstanceOf(InvalidRequestException.class);
    }

    @Test
    void extendMovesTheDeadlineSoNobodyElseGetsTheMessage()
    {
        final SubscriptionPartitionState state = newState(
            SubscriptionSettings.builder().lockTimeoutMillis(2_000).build(), 1);
        acquire(state, 1, CONSUMER);
        for (int second = 1; second <= 5; second++)
        {
            clock.advance(1_000);
            assertThat(state.extend(0, 1, 2_000)).isEqualTo(clock.time() + 2_000);
            assertThat(state.expireDue()).isZero();
            assertThat(acquire(state, 1, OTHER_CONSUMER)).isEmpty();
        }
        clock.advance(2_000);
        assertThat(state.expireDue()).isEqualTo(1);
    }

    @Test
    void clockJumpOfHoursExpiresEverythingDueWithoutTickingThroughIt()
    {
        final SubscriptionPartitionState state = newState(1000);
        for (int i = 0; i < 10; i++)
        {
            acquire(state, 100, CONSUMER);
            clock.advance(1);
        }
        clock.advance(5L * 60 * 60 * 1000);

        assertThat(state.expireDue()).isEqualTo(1000);
        assertThat(state.counts().inFlightCount()).isZero();
        assertThat(state.counts().readyCount()).isEqualTo(1000);
    }

    @Test
    void deliveryLimitThreeDeliversFourTimesThenDeadLetters()
    {
        final SubscriptionPartitionState state = newState(
            SubscriptionSettings.builder().deliveryLimit(3).build(), 1);
        int deliveries = 0;
        while (acquire(state, 1, CONSUMER).size() == 1)
        {
            deliveries++;
            state.nack(0, deliveryNumbers.get(0));
        }

        assertThat(deliveries).isEqualTo(4);
        assertThat(deaths).containsExactly("0:delivery_limit:4");
        assertThat(state.ackFloor()).isEqualTo(1);
    }

    @Test
    void defaultDeliveryLimitAllowsTwentyOneDeliveries()
    {
        final SubscriptionPartitionState state = newState(1);
        int deliveries = 0;
        while (acquire(state, 1, CONSUMER).size() == 1)
        {
            deliveries++;
            state.releaseConsumer(CONSUMER);
        }

        assertThat(deliveries).isEqualTo(21);
        assertThat(deaths).containsExactly("0:delivery_limit:21");
    }

    @Test
    void unlimitedDeliveriesNeverDeadLetterAndCountPastAByte()
    {
        final SubscriptionPartitionState state = newState(
            SubscriptionSettings.builder().deliveryLimit(SubscriptionSettings.UNLIMITED_DELIVERIES).build(), 1);
        for (int delivery = 1; delivery <= 600; delivery++)
        {
            acquire(state, 1, CONSUMER);
            assertThat(deliveryNumbers).containsExactly(delivery);
            state.nack(0, delivery);
        }

        assertThat(deaths).isEmpty();
        assertThat(state.deliveryCount(0)).isEqualTo(600);
        assertThatThrownBy(() -> state.ack(0, 599)).isInstanceOf(StaleReceiptException.class);
    }

    @Test
    void lockExpiryCountsTowardsTheDeliveryLimit()
    {
        final SubscriptionPartitionState state = newState(
            SubscriptionSettings.builder().deliveryLimit(1).lockTimeoutMillis(10).build(), 1);
        acquire(state, 1, CONSUMER);
        clock.advance(10);
        state.expireDue();
        acquire(state, 1, CONSUMER);
        clock.advance(10);

        assertThat(state.expireDue()).isEqualTo(1);
        assertThat(deaths).containsExactly("0:delivery_limit:2");
    }

    @Test
    void nackWithDelayKeepsTheMessageUntilDueWithoutHeadOfLineBlocking()
    {
        final SubscriptionPartitionState state = newState(2);
        acquire(state, 2, CONSUMER);
        state.nackWithDelay(0, 1, 5_000);
        state.nackWithDelay(1, 1, 500);

        assertThat(state.state(0)).isEqualTo(MessageState.DELAYED);
        assertThat(state.counts().delayedCount()).isEqualTo(2);
        assertThat(state.counts().inFlightCount()).isZero();
        assertThatThrownBy(() -> state.ack(0, 1))
            .isInstanceOf(StaleReceiptException.class).hasMessageContaining("delay");
        clock.advance(500);
        assertThat(acquire(state, 5, CONSUMER)).containsExactly(1L);
        clock.advance(4_499);
        assertThat(acquire(state, 5, CONSUMER)).isEmpty();
        clock.advance(1);
        assertThat(acquire(state, 5, CONSUMER)).containsExactly(0L);
        assertThat(deliveryNumbers).containsExactly(2);
    }

    @Test
    void nackWithDelayAtTheLimitDeadLettersInstead()
    {
        final SubscriptionPartitionState state = newState(
            SubscriptionSettings.builder().deliveryLimit(1).build(), 1);
        acquire(state, 1, CONSUMER);
        state.nack(0, 1);
        acquire(state, 1, CONSUMER);
        state.nackWithDelay(0, 2, 1_000);

        assertThat(deaths).containsExactly("0:delivery_limit:2");
        assertThat(state.counts().delayedCount()).isZero();
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
