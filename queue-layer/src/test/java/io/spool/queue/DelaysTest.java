package io.spool.queue;

import io.spool.api.queue.InvalidSettingsException;
import io.spool.api.queue.QueueHeaders;
import io.spool.api.queue.RetryPolicy;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.spool.queue.QueueFixture.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Delivery times on publish and retry ladders: every message is due on its own time, and both survive restarts.
 */
class DelaysTest
{
    @TempDir
    Path dir;
    QueueFixture fx;

    @BeforeEach
    void open()
    {
        fx = new QueueFixture(dir);
        fx.topic("orders", 1);
        fx.topic("orders.dlq", 1);
    }

    @AfterEach
    void close()
    {
        fx.close();
    }

    private Subscription subscribe(final SubscriptionSettings.Builder settings)
    {
        return fx.spool.createSubscription("work", "orders", settings.build());
    }

    @Test
    void aShortDelayBehindALongOneComesOutOnItsOwnTime()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder());
        fx.publishWith("orders", "five seconds", QueueHeaders.DELAY, "5000");
        fx.publishWith("orders", "half a second", QueueHeaders.DELAY, "500");
        fx.publish("orders", "now");

        assertThat(values(work.receive(10, 0))).containsExactly("now");
        assertThat(work.metrics().delayed()).isEqualTo(2);
        fx.advance(work, 499);
        assertThat(work.receive(10, 0)).isEmpty();
        fx.advance(work, 1);
        final List<Delivery> half = work.receive(10, 0);
        assertThat(values(half)).containsExactly("half a second");
        assertThat(half.get(0).deliveryNumber()).isEqualTo(1);
        assertThat(half.get(0).firstDeliveryTime()).isEqualTo(fx.clock.time());
        fx.advance(work, 4_500);
        assertThat(values(work.receive(10, 0))).containsExactly("five seconds");
    }

    @Test
    void aDelayedMessageAmongPlainOnesTheReadAheadFoundIsHeldWhileTheOthersGo()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder());
        // Past the first batch of records the read-ahead reads at once, with plain messages on both sides.
        for (int i = 0; i < 100; i++)
        {
            fx.publish("orders", "plain " + i);
        }
        fx.publishWith("orders", "one second", QueueHeaders.DELAY, "1000");
        for (int i = 100; i < 130; i++)
        {
            fx.publish("orders", "plain " + i);
        }
        work.sync();

        final List<String> received = values(work.receive(500, 0));
        assertThat(received).hasSize(130).allSatisfy(value -> assertThat(value).startsWith("plain "));
        assertThat(work.metrics().delayed()).isEqualTo(1);
        fx.advance(work, 1_000);
        assertThat(values(work.receive(10, 0))).containsExactly("one second");
    }

    @Test
    void aDeliveryTimeHeaderHoldsTheMessageUntilThen()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder());
        fx.publishWith("orders", "at noon", QueueHeaders.DELIVER_AT, Long.toString(fx.clock.time() + 60_000));
        fx.publishWith("orders", "in the past", QueueHeaders.DELIVER_AT, Long.toString(fx.clock.time() - 1));
        final List<Delivery> past = work.receive(10, 0);
        assertThat(values(past)).containsExactly("in the past");
        work.ack(past.get(0).receipt());
        fx.advance(work, 60_000);
        assertThat(values(work.receive(10, 0))).containsExactly("at noon");
    }

    @Test
    void aMalformedDelayHeaderDeliversAtOnce()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder());
        fx.publishWith("orders", "bad", QueueHeaders.DELAY, "soon");
        assertThat(values(work.receive(10, 0))).containsExactly("bad");
    }

    @Test
    void delayedMessagesSurviveARestart()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder());
        fx.publishWith("orders", "later", QueueHeaders.DELAY, "10000");
        fx.publish("orders", "now");
        final Delivery now = work.receive(10, 0).get(0);
        work.ack(now.receipt());
        work.nack(workReceiveAfterPublish(work, "retry").receipt(), 3_000);
        fx.reopen();
        final Subscription reopened = fx.spool.subscription("work");

        assertThat(reopened.receive(10, 0)).isEmpty();
        assertThat(reopened.metrics().delayed()).isEqualTo(2);
        fx.advance(reopened, 3_000);
        assertThat(values(reopened.receive(10, 0))).containsExactly("retry");
        fx.advance(reopened, 7_000);
        assertThat(values(reopened.receive(10, 0))).containsExactly("later");
    }

    private Delivery workReceiveAfterPublish(final Subscription work, final String value)
    {
        fx.publish("orders", value);
        return work.receive(1, 0).get(0);
    }

    @Test
    void aRetryLadderWaitsEachRungThenDeadLetters()
    {
        Subscription work = subscribe(SubscriptionSettings.builder().deadLetterTopic("orders.dlq")
            .retryPolicy(RetryPolicy.ladder(1_000, 5_000, 30_000)));
        fx.publish("orders", "flaky");
        work.nack(work.receive(1, 0).get(0).receipt());
        fx.advance(work, 999);
        assertThat(work.receive(1, 0)).isEmpty();
        fx.advance(work, 1);
        work.nack(work.receive(1, 0).get(0).receipt());
        fx.reopen();
        work = fx.spool.subscription("work");
        fx.advance(work, 4_999);
        assertThat(work.receive(1, 0)).isEmpty();
        fx.advance(work, 1);
        final Delivery third = work.receive(1, 0).get(0);
        assertThat(third.deliveryNumber()).isEqualTo(3);
        work.nack(third.receipt());
        fx.advance(work, 30_000);
        final Delivery last = work.receive(1, 0).get(0);
        work.nack(last.receipt());

        assertThat(work.receive(1, 0)).isEmpty();
        final List<ConsumerRecord> dead = fx.awaitRecords("orders.dlq", 1);
        assertThat(QueueFixture.header(dead.get(0), DeathHistory.REASON)).isEqualTo("delivery_limit");
        assertThat(QueueFixture.header(dead.get(0), DeathHistory.DELIVERIES)).isEqualTo("4");
    }

    @Test
    void aRetryLadderIsCheckedWhenBuilt()
    {
        assertThatThrownBy(RetryPolicy::ladder).isInstanceOf(InvalidSettingsException.class)
            .hasMessageContaining("1 to 64 delays");
        assertThatThrownBy(() -> RetryPolicy.ladder(1_000, 0)).isInstanceOf(InvalidSettingsException.class)
            .hasMessageContaining("was 0 ms");
        assertThatThrownBy(() -> SubscriptionSettings.builder().retryPolicy(null).build())
            .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("retry policy");
    }
}
