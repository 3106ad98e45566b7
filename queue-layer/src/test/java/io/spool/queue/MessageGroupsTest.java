package io.spool.queue;

import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.GroupKeySource;
import io.spool.api.queue.GroupMode;
import io.spool.api.queue.InvalidSettingsException;
import io.spool.api.queue.OverflowPolicy;
import io.spool.api.queue.QueueHeaders;
import io.spool.api.queue.RetryPolicy;
import io.spool.api.queue.StaleReceiptException;
import io.spool.api.queue.SubscriptionSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static io.spool.queue.QueueFixture.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * SQS FIFO message groups: at most one message of a group in flight, in offset order, groups independent.
 */
class MessageGroupsTest
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

    private Subscription ordered(final SubscriptionSettings.Builder settings)
    {
        return fx.spool.createSubscription("work", "orders",
            settings.messageGroups(GroupMode.ORDERED, GroupKeySource.HEADER).build());
    }

    private void publishGrouped(final String... groupDashValue)
    {
        for (final String message : groupDashValue)
        {
            fx.publishWith("orders", message, QueueHeaders.GROUP_ID, message.substring(0, 1));
        }
    }

    private static Delivery find(final List<Delivery> deliveries, final String value)
    {
        return deliveries.stream().filter(d -> d.valueAsString().equals(value)).findFirst().orElseThrow();
    }

    @Test
    void aReceiveTakesRunsOfEachGroupInOrderWhileABusyGroupWaits()
    {
        final Subscription work = ordered(SubscriptionSettings.builder());
        publishGrouped("A0", "B0", "C0", "A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3");
        fx.publish("orders", "plain");

        final List<Delivery> held = work.receive(1, 0);
        assertThat(values(held)).containsExactly("A0");
        assertThat(values(work.receive(10, 0))).as("SQS FIFO's answer with A0 in flight")
            .containsExactly("B0", "B1", "B2", "B3", "C0", "C1", "C2", "C3", "plain");
        work.ack(held.get(0).receipt());
        final List<Delivery> rest = work.receive(10, 0);
        assertThat(values(rest)).containsExactly("A1", "A2", "A3");
        assertThat(rest).allSatisfy(d -> assertThat(d.deliveryNumber()).isEqualTo(1));
    }

    @Test
    void aGroupStaysBlockedUntilTheWholeRunIsSettled()
    {
        final Subscription work = ordered(SubscriptionSettings.builder());
        publishGrouped("A0", "A1", "A2");
        final List<Delivery> run = work.receive(10, 0);
        assertThat(values(run)).containsExactly("A0", "A1", "A2");
        publishGrouped("A3");

        work.ack(run.get(2).receipt());
        work.ack(run.get(0).receipt());
        assertThat(work.receive(10, 0)).as("A1 is still out").isEmpty();
        work.ack(run.get(1).receipt());
        assertThat(values(work.receive(10, 0))).containsExactly("A3");
    }

    @Test
    void aNackedMemberComesBackWithTheMembersAfterItInOrder()
    {
        final Subscription work = ordered(SubscriptionSettings.builder());
        publishGrouped("A0", "A1", "A2", "A3");
        final List<Delivery> run = work.receive(10, 0);
        assertThat(values(run)).containsExactly("A0", "A1", "A2", "A3");

        work.nack(run.get(1).receipt());
        assertThatThrownBy(() -> work.ack(run.get(2).receipt())).as("A2 came back with A1")
            .isInstanceOf(StaleReceiptException.class);
        assertThat(work.receive(10, 0)).as("A0 is still out, so A1 waits").isEmpty();
        work.ack(run.get(0).receipt());
        final List<Delivery> again = work.receive(10, 0);
        assertThat(values(again)).containsExactly("A1", "A2", "A3");
        assertThat(again).allSatisfy(d -> assertThat(d.redelivered()).isTrue());
    }

    @Test
    void aMemberNackedWithADelayHoldsTheMembersAfterItUntilItIsDue()
    {
        final Subscription work = ordered(SubscriptionSettings.builder());
        publishGrouped("A0", "A1", "A2");
        final List<Delivery> run = work.receive(10, 0);
        work.ack(run.get(0).receipt());

        work.nack(run.get(1).receipt(), 2_000);
        assertThat(work.receive(10, 0)).isEmpty();
        assertThat(work.metrics().delayed()).isEqualTo(1);
        fx.advance(work, 2_000);
        assertThat(values(work.receive(10, 0))).containsExactly("A1", "A2");
    }

    @Test
    void anExpiredLockOfTheRunsFirstMemberGivesBackTheWholeRunInOrder()
    {
        final Subscription work = ordered(SubscriptionSettings.builder().lockTimeoutMillis(1_000));
        publishGrouped("A0", "A1");
        final List<Delivery> run = work.receive(10, 0);
        assertThat(values(run)).containsExactly("A0", "A1");
        work.extend(run.get(1).receipt(), 60_000);
        fx.advance(work, 1_000);

        final List<Delivery> again = work.receive(10, 0);
        assertThat(values(again)).containsExactly("A0", "A1");
        assertThat(again).allSatisfy(d -> assertThat(d.deliveryNumber()).isEqualTo(2));
        work.nack(again.get(0).receipt());
        assertThat(values(work.receive(1, 0))).containsExactly("A0");
    }

    @Test
    void aPushConsumersCreditTakesARunAndOtherConsumersWaitForTheGroup()
    {
        final Subscription work = ordered(SubscriptionSettings.builder());
        publishGrouped("A0", "A1", "A2", "A3");
        final List<String> first = new java.util.concurrent.CopyOnWriteArrayList<>();
        final java.util.concurrent.CountDownLatch three = new java.util.concurrent.CountDownLatch(3);
        final QueueConsumer consumer = work.consume(ConsumerOptions.prefetch(3), (delivery, c) ->
        {
            first.add(delivery.valueAsString());
            three.countDown();
        });
        QueueFixture.await(three);
        work.sync();

        assertThat(first).containsExactly("A0", "A1", "A2");
        assertThat(work.receive(10, 0)).as("A3 waits for the run the consumer holds").isEmpty();
        consumer.close();
        assertThat(values(work.receive(10, 0))).containsExactly("A0", "A1", "A2", "A3");
    }

    @Test
    void aDeadLetteredHeadFreesItsGroup()
    {
        final Subscription work = ordered(SubscriptionSettings.builder().deadLetterTopic("orders.dlq")
            .deliveryLimit(1));
        publishGrouped("A0", "A1", "A2");
        work.reject(work.receive(1, 0).get(0).receipt());
        final Delivery next = work.receive(1, 0).get(0);
        assertThat(next.valueAsString()).isEqualTo("A1");
        work.nack(next.receipt());
        work.nack(work.receive(1, 0).get(0).receipt());
        assertThat(values(work.receive(10, 0))).containsExactly("A2");
        System.out.println("METRICS " + work.metrics());
        assertThat(work.metrics().dead()).isEqualTo(2);
    }

    @Test
    void groupOrderSurvivesARestart()
    {
        Subscription work = ordered(SubscriptionSettings.builder());
        publishGrouped("A0", "A1", "B0", "B1", "A2");
        final List<Delivery> before = work.receive(2, 0);
        assertThat(values(before)).containsExactly("A0", "A1");
        final List<Delivery> groupB = work.receive(1, 0);
        assertThat(values(groupB)).containsExactly("B0");
        work.ack(groupB.get(0).receipt());
        work.ack(before.get(0).receipt());
        fx.reopen();
        work = fx.spool.subscription("work");

        final List<Delivery> after = work.receive(10, 0);
        assertThat(values(after)).containsExactly("A1", "A2", "B1");
        assertThat(find(after, "A1").redelivered()).isTrue();
        assertThat(find(after, "A2").redelivered()).isFalse();
        assertThat(work.receive(10, 0)).isEmpty();
    }

    @Test
    void theRecordKeyCanNameTheGroup()
    {
        final Subscription work = fx.spool.createSubscription("work", "orders", SubscriptionSettings.builder()
            .messageGroups(GroupMode.ORDERED, GroupKeySource.RECORD_KEY).build());
        for (final String value : new String[] {"k1-a", "k2-a", "k1-b"})
        {
            fx.spool.newProducer().send("orders", value.substring(0, 2).getBytes(StandardCharsets.UTF_8),
                value.getBytes(StandardCharsets.UTF_8)).join();
        }
        final List<Delivery> first = work.receive(1, 0);
        assertThat(values(first)).containsExactly("k1-a");
        assertThat(values(work.receive(10, 0))).containsExactly("k2-a");
        work.ack(first.get(0).receipt());
        assertThat(values(work.receive(10, 0))).containsExactly("k1-b");
    }

    @Test
    void aMessageWaitingBehindItsGroupIsNotReadyWhetherOrNotAReceiveMetIt()
    {
        final Subscription work = ordered(SubscriptionSettings.builder());
        publishGrouped("A0");
        fx.clock.advance(1_000);
        publishGrouped("A1", "B0");
        work.sync();
        assertThat(new long[] {work.metrics().ready(), work.metrics().oldestReadyAgeMillis()})
            .containsExactly(2, 1_000);

        final List<Delivery> heads = work.receive(2, 0);
        assertThat(values(heads)).containsExactly("A0", "A1");
        assertThat(work.metrics().ready()).isEqualTo(1);
        assertThat(values(work.receive(10, 0))).containsExactly("B0");
        assertThat(work.metrics().ready()).isZero();
        work.ack(find(heads, "A0").receipt());
        assertThat(work.metrics().ready()).as("A1 is still out").isZero();
    }

    @Test
    void overflowCountsAndDropsOnlyMessagesThatAreReady()
    {
        final Subscription work = ordered(SubscriptionSettings.builder().deadLetterTopic("orders.dlq")
            .overflow(2, SubscriptionSettings.NO_LIMIT, OverflowPolicy.DROP_HEAD));
        publishGrouped("A0", "A1", "A2", "B0");
        work.sync();
        assertThat(fx.readTopic("orders.dlq")).isEmpty();

        // Three ready: the oldest, A0, goes, and frees A1, now the oldest ready, and so on down its group.
        publishGrouped("C0");
        work.sync();
        assertThat(fx.awaitRecords("orders.dlq", 3)).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
            .containsExactly("A0", "A1", "A2");
        assertThat(values(work.receive(10, 0))).containsExactly("B0", "C0");
    }

    @Test
    void groupSettingsSurviveARestart()
    {
        ordered(SubscriptionSettings.builder().retryPolicy(RetryPolicy.ladder(1_000, 5_000)).messageTtlMillis(60_000));
        final SubscriptionSettings before = fx.spool.subscription("work").settings();
        fx.reopen();
        assertThat(fx.spool.subscription("work").settings()).isEqualTo(before);
    }

    @Test
    void groupSettingsWithoutAModeOrSourceAreRefused()
    {
        assertThatThrownBy(() -> SubscriptionSettings.builder().messageGroups(null, GroupKeySource.HEADER).build())
            .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("was null and HEADER");
        assertThatThrownBy(() -> SubscriptionSettings.builder().messageGroups(GroupMode.ORDERED, null).build())
            .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("was ORDERED and null");
    }

    /**
     * A run of a group whose lock ends: the head comes back and the members behind it with it, in the one tick
     * their locks share, and the subscription goes on (its agent once failed here, following the timer link of a
     * member the head's expiry had already freed).
     */
    @Test
    void aRunWhoseLockEndsComesBackWholeInOneTickAndTheSubscriptionGoesOn()
    {
        final Subscription work = ordered(SubscriptionSettings.builder().lockTimeoutMillis(5_000).deliveryLimit(1));
        publishGrouped("a-1", "a-2");
        assertThat(work.receive(2, 0)).hasSize(2);

        fx.advance(work, 5_000);

        assertThat(work.metrics().inFlight()).isZero();
        final List<Delivery> again = work.receive(10, 0);
        assertThat(QueueFixture.values(again)).containsExactly("a-1", "a-2");
        assertThat(again).allSatisfy(delivery -> assertThat(delivery.redelivered()).isTrue());
    }
}
