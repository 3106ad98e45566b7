package io.spool.queue.internal.state;

import io.spool.api.InvalidRequestException;
import io.spool.api.queue.StaleReceiptException;
import io.spool.api.queue.SubscriptionSettings;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Locks that run out, are extended or outlive a clock jump; delivery limits; delayed redelivery. */
class LocksAndDeliveryLimitsTest extends PartitionStateFixture
{
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
}
