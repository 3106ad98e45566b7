package io.spool.queue;

import io.spool.api.EngineClosedException;
import io.spool.api.InvalidRequestException;
import io.spool.api.queue.BatchResult;
import io.spool.api.queue.InvalidSettingsException;
import io.spool.api.queue.QueueException;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.RetentionMode;
import io.spool.api.queue.StaleReceiptException;
import io.spool.api.queue.SubscriptionDescription;
import io.spool.api.queue.SubscriptionExistsException;
import io.spool.api.queue.SubscriptionMetrics;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.queue.UnknownDeliveryException;
import io.spool.api.queue.UnknownSubscriptionException;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.UnknownTopicException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static io.spool.queue.QueueFixture.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SubscriptionTest
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
    void receiveHandsOutEachMessageOnceUntilAcked()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder());
        fx.publish("orders", "a", "b", "c");
        final List<Delivery> first = work.receive(2, 0);
        assertThat(values(first)).containsExactly("a", "b");
        assertThat(first).allSatisfy(d -> assertThat(d.redelivered()).isFalse());
        assertThat(values(work.receive(10, 0))).containsExactly("c");
        assertThat(work.receive(10, 0)).isEmpty();
        work.ack(first.get(0).receipt());
        final SubscriptionMetrics metrics = work.metrics();
        assertThat(metrics.inFlight()).isEqualTo(2);
        assertThat(metrics.ready()).isZero();
    }

    @Test
    void anExpiredLockRedeliversAndTheLateHoldersReceiptIsStale()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder().lockTimeoutMillis(2_000));
        fx.publish("orders", "slow");
        final Delivery first = work.receive(1, 0).get(0);
        fx.advance(work, 1_999);
        assertThat(work.receive(1, 0)).isEmpty();
        fx.advance(work, 1);
        final Delivery second = work.receive(1, 0).get(0);
        assertThat(second.deliveryNumber()).isEqualTo(2);
        assertThat(second.redelivered()).isTrue();
        assertThatThrownBy(() -> work.ack(first.receipt())).isInstanceOf(StaleReceiptException.class);
        work.ack(second.receipt());
        assertThatThrownBy(() -> work.ack(second.receipt())).isInstanceOf(QueueException.class)
            .hasMessageContaining(Long.toString(second.offset()));
    }

    @Test
    void everyDeliveryCarriesTheFirstDeliveryTimeAcrossRedeliveryAndRestart()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder().lockTimeoutMillis(1_000));
        fx.publish("orders", "job");
        final long firstTime = fx.clock.time();
        final Delivery first = work.receive(1, 0).get(0);
        fx.advance(work, 1_000);
        final Delivery second = work.receive(1, 0).get(0);
        fx.clock.advance(5_000);
        fx.reopen();
        final Subscription reopened = fx.spool.subscription("work");
        final Delivery third = reopened.receive(1, 0).get(0);

        assertThat(List.of(first, second, third)).extracting(Delivery::firstDeliveryTime)
            .containsOnly(firstTime);
        assertThat(third.deliveryNumber()).isEqualTo(3);
    }

    @Test
    void extendingTheLockKeepsOthersFromTheMessage()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder().lockTimeoutMillis(2_000));
        fx.publish("orders", "long job");
        final Delivery held = work.receive(1, 0).get(0);
        for (int second = 0; second < 5; second++)
        {
            fx.advance(work, 1_000);
            work.extend(held.receipt(), 2_000);
            assertThat(work.receive(1, 0)).isEmpty();
        }
        work.ack(held.receipt());
        assertThat(work.metrics().inFlight()).isZero();
    }

    @Test
    void nackRedeliversAtOnceAndNackWithDelayWhenDue()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder());
        fx.publish("orders", "x", "y");
        final List<Delivery> got = work.receive(2, 0);
        work.nack(got.get(0).receipt());
        work.nack(got.get(1).receipt(), 5_000);
        final List<Delivery> again = work.receive(10, 0);
        assertThat(values(again)).containsExactly("x");
        assertThat(again.get(0).redelivered()).isTrue();
        fx.advance(work, 4_999);
        assertThat(work.receive(10, 0)).isEmpty();
        fx.advance(work, 1);
        assertThat(values(work.receive(10, 0))).containsExactly("y");
    }

    @Test
    void rejectDeadLettersWithADeathHistory()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder().deadLetterTopic("orders.dlq"));
        fx.publish("orders", "poison");
        work.reject(work.receive(1, 0).get(0).receipt());
        work.sync();
        final List<ConsumerRecord> dead = fx.awaitRecords("orders.dlq", 1);
        assertThat(new String(dead.get(0).value(), StandardCharsets.UTF_8)).isEqualTo("poison");
        assertThat(QueueFixture.header(dead.get(0), DeathHistory.REASON)).isEqualTo("rejected");
        assertThat(QueueFixture.header(dead.get(0), DeathHistory.SUBSCRIPTION)).isEqualTo("work");
        assertThat(QueueFixture.header(dead.get(0), DeathHistory.TOPIC)).isEqualTo("orders");
        assertThat(QueueFixture.header(dead.get(0), DeathHistory.COUNT)).isEqualTo("1");
        assertThat(work.metrics().dead()).isEqualTo(1);
    }

    @Test
    void aDeliveryLimitOfThreeDeliversFourTimesThenDeadLetters()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder().deliveryLimit(3).deadLetterTopic("orders.dlq"));
        fx.publish("orders", "poison");
        int deliveries = 0;
        List<Delivery> got;
        while (!(got = work.receive(1, 0)).isEmpty())
        {
            deliveries++;
            work.nack(got.get(0).receipt());
        }
        assertThat(deliveries).isEqualTo(4);
        final List<ConsumerRecord> dead = fx.awaitRecords("orders.dlq", 1);
        assertThat(QueueFixture.header(dead.get(0), DeathHistory.REASON)).isEqualTo("delivery_limit");
        assertThat(QueueFixture.header(dead.get(0), DeathHistory.DELIVERIES)).isEqualTo("4");
    }

    @Test
    void ackStateAndDeliveryCountsSurviveARestart()
    {
        Subscription work = subscribe(SubscriptionSettings.builder());
        fx.publish("orders", "acked", "held");
        final List<Delivery> got = work.receive(2, 0);
        work.ack(got.get(0).receipt());
        fx.reopen();
        work = fx.spool.subscription("work");
        final List<Delivery> after = work.receive(10, 0);
        assertThat(values(after)).containsExactly("held");
        assertThat(after.get(0).deliveryNumber()).isEqualTo(2);
    }

    @Test
    void twoSubscriptionsOnOneTopicEachSeeEveryMessage()
    {
        final Subscription email = fx.spool.createSubscription("email", "orders", SubscriptionSettings.DEFAULT);
        final Subscription stats = fx.spool.createSubscription("stats", "orders", SubscriptionSettings.DEFAULT);
        fx.publish("orders", "1", "2", "3");
        assertThat(values(email.receive(10, 0))).containsExactly("1", "2", "3");
        assertThat(values(stats.receive(10, 0))).containsExactly("1", "2", "3");
    }

    @Test
    void aLongPollReturnsAsSoonAsAMessageArrives() throws Exception
    {
        final Subscription work = subscribe(SubscriptionSettings.builder());
        final CompletableFuture<List<Delivery>> waiting = CompletableFuture.supplyAsync(() -> work.receive(5, 600_000));
        fx.publish("orders", "late");
        assertThat(values(waiting.get(30, java.util.concurrent.TimeUnit.SECONDS))).containsExactly("late");
    }

    @Test
    void anEmptyLongPollEndsWhenItsWaitHasPassed() throws Exception
    {
        final Subscription work = subscribe(SubscriptionSettings.builder());
        final CompletableFuture<List<Delivery>> waiting = CompletableFuture.supplyAsync(() -> work.receive(5, 5_000));
        while (work.metrics() != null && !waiting.isDone())
        {
            fx.advance(work, 1_000);
        }
        assertThat(waiting.get()).isEmpty();
    }

    @Test
    void workQueueRetentionDropsSegmentsEverySubscriptionAckedPast()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder().retentionMode(RetentionMode.WORK_QUEUE));
        final String big = "x".repeat(8 * 1024);
        for (int i = 0; i < 40; i++)
        {
            fx.publish("orders", big);
        }
        final long segments = fx.spool.streams().topics().topic("orders").partition(0).segmentCount();
        assertThat(segments).isGreaterThan(3);
        List<Delivery> got;
        while (!(got = work.receive(100, 0)).isEmpty())
        {
            work.ack(got.stream().map(Delivery::receipt).collect(java.util.stream.Collectors.toList()));
        }
        work.sync();
        assertThat(fx.spool.runMaintenance()).isPositive();
        assertThat(fx.spool.streams().topics().topic("orders").partition(0).segmentCount()).isEqualTo(1);
    }

    @Test
    void batchSettlementsReportEachFailure()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder());
        fx.publish("orders", "a", "b");
        final List<Delivery> got = work.receive(2, 0);
        work.ack(got.get(0).receipt());
        final BatchResult result = work.ack(List.of(got.get(0).receipt(), got.get(1).receipt()));
        assertThat(result.succeeded()).containsExactly(got.get(1).receipt());
        assertThat(result.failed()).containsOnlyKeys(got.get(0).receipt());
    }

    @Test
    void badRequestsGetSpecificErrors()
    {
        assertThatThrownBy(() -> fx.spool.createSubscription("bad name", "orders", SubscriptionSettings.DEFAULT))
            .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("subscription name 'bad name'");
        assertThatThrownBy(() -> fx.spool.createSubscription("s", "missing", SubscriptionSettings.DEFAULT))
            .isInstanceOf(UnknownTopicException.class);
        subscribe(SubscriptionSettings.builder());
        assertThatThrownBy(() -> subscribe(SubscriptionSettings.builder()))
            .isInstanceOf(SubscriptionExistsException.class).hasMessageContaining("already exists on topic 'orders'");
        assertThatThrownBy(() -> fx.spool.subscription("nope"))
            .isInstanceOf(UnknownSubscriptionException.class).hasMessageContaining("'nope' does not exist");
        assertThatThrownBy(() -> fx.spool.subscription("work").receive(0, 0))
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("between 1 and 10000");
        fx.publish("orders", "m");
        final long issuer = fx.spool.subscription("work").receive(1, 0).get(0).receipt().issuer();
        assertThatThrownBy(() -> fx.spool.subscription("work").ack(new Receipt(issuer, 7, 0, 1)))
            .isInstanceOf(UnknownDeliveryException.class).hasMessageContaining("no partition 7");
    }

    @Test
    void aClosedEngineSaysSoWhenAskedForASubscription()
    {
        subscribe(SubscriptionSettings.builder());
        fx.spool.close();

        assertThatThrownBy(() -> fx.spool.subscription("work"))
            .isInstanceOf(EngineClosedException.class).hasMessage("the queue engine is closed");
        assertThatThrownBy(() -> fx.spool.subscription("never-made")).isInstanceOf(EngineClosedException.class);
        assertThatThrownBy(() -> fx.spool.createSubscription("other", "orders", SubscriptionSettings.DEFAULT))
            .isInstanceOf(EngineClosedException.class);
        assertThatThrownBy(() -> fx.spool.deleteSubscription("work")).isInstanceOf(EngineClosedException.class);
    }

    @Test
    void subscriptionsAndTheirSettingsSurviveARestart()
    {
        subscribe(SubscriptionSettings.builder().lockTimeoutMillis(1234).deliveryLimit(-1).deadLetterTopic("orders.dlq"));
        fx.reopen();
        final SubscriptionSettings settings = fx.spool.subscription("work").settings();
        assertThat(settings.lockTimeoutMillis()).isEqualTo(1234);
        assertThat(settings.deliveryLimit()).isEqualTo(-1);
        assertThat(settings.deadLetterTopic()).isEqualTo("orders.dlq");
        fx.spool.deleteSubscription("work");
        fx.reopen();
        assertThat(fx.spool.subscriptions()).isEmpty();
    }

    @Test
    void describeGivesTheTopicTheSettingsAndTheMetrics()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder().deadLetterTopic("orders.dlq"));
        fx.publish("orders", "a");
        work.reject(work.receive(1, 0).get(0).receipt());
        fx.publish("orders", "b");

        final SubscriptionDescription description = work.describe();

        assertThat(description.name()).isEqualTo("work");
        assertThat(description.topic()).isEqualTo("orders");
        assertThat(description.settings()).isEqualTo(work.settings());
        assertThat(description.metrics().dead()).isEqualTo(1);
        assertThat(description.metrics().ready()).isEqualTo(1);
    }
}
