package io.spool.queue;

import io.spool.api.queue.GroupKeySource;
import io.spool.api.queue.GroupMode;
import io.spool.api.queue.InvalidSettingsException;
import io.spool.api.queue.QueueHeaders;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ConsumerRecord;
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
 * Time to live per subscription and per message: a message expires on its own time, wherever it waits, and is
 * dead-lettered with reason expired.
 */
class TimeToLiveTest
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
        return fx.spool.createSubscription("work", "orders", settings.deadLetterTopic("orders.dlq").build());
    }

    private List<String> deadValues(final int count)
    {
        final List<ConsumerRecord> dead = fx.awaitRecords("orders.dlq", count);
        assertThat(dead).allSatisfy(r -> assertThat(QueueFixture.header(r, DeathHistory.REASON)).isEqualTo("expired"));
        return dead.stream().map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
    }

    @Test
    void aShortLivedMessageBehindALongLivedOneExpiresOnItsOwnTimeWithNobodyReceiving()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder());
        fx.publishWith("orders", "ten seconds", QueueHeaders.TTL, "10000");
        fx.publishWith("orders", "one second", QueueHeaders.TTL, "1000");
        fx.publish("orders", "forever");
        work.sync();
        fx.advance(work, 999);
        assertThat(work.metrics().dead()).isZero();
        fx.advance(work, 1);

        assertThat(deadValues(1)).containsExactly("one second");
        assertThat(work.metrics().dead()).isEqualTo(1);
        assertThat(values(work.receive(10, 0))).containsExactly("ten seconds", "forever");
    }

    @Test
    void aMessageWithATimeToLiveAmongPlainOnesIsFoundByTheReadAheadAndExpiresOnTime()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder());
        // Past the first batch of records the read-ahead reads at once, with plain messages on both sides.
        for (int i = 0; i < 100; i++)
        {
            fx.publish("orders", "plain " + i);
        }
        fx.publishWith("orders", "one second", QueueHeaders.TTL, "1000");
        for (int i = 100; i < 130; i++)
        {
            fx.publish("orders", "plain " + i);
        }
        work.sync();
        fx.advance(work, 1_000);

        assertThat(deadValues(1)).containsExactly("one second");
        final List<String> received = values(work.receive(500, 0));
        assertThat(received).hasSize(130).allSatisfy(value -> assertThat(value).startsWith("plain "));
    }

    @Test
    void aSubscriptionTtlExpiresTheBacklogOnTime()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder().messageTtlMillis(5_000));
        fx.publish("orders", "a", "b");
        fx.advance(work, 2_000);
        fx.publish("orders", "c");
        fx.advance(work, 3_000);

        assertThat(deadValues(2)).containsExactly("a", "b");
        assertThat(values(work.receive(10, 0))).containsExactly("c");
    }

    @Test
    void aReleasedMessageExpiresWhereItWaitsAndAHeldOneWhenItComesBack()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder().messageTtlMillis(5_000)
            .lockTimeoutMillis(60_000));
        fx.publish("orders", "released", "held");
        final List<Delivery> got = work.receive(2, 0);
        work.nack(got.get(0).receipt());
        fx.advance(work, 5_000);
        assertThat(deadValues(1)).containsExactly("released");
        assertThat(work.metrics().inFlight()).isEqualTo(1);

        work.nack(got.get(1).receipt());
        assertThat(deadValues(2)).containsExactly("released", "held");
        assertThat(work.receive(10, 0)).isEmpty();
    }

    @Test
    void aDelayedMessageExpiresAtItsExpiryNotAtItsDueTime()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder());
        fx.publishWith("orders", "late", QueueHeaders.DELAY, "10000", QueueHeaders.TTL, "2000");
        work.sync();
        fx.advance(work, 2_000);
        assertThat(deadValues(1)).containsExactly("late");
        assertThat(work.metrics().delayed()).isZero();
    }

    @Test
    void expiryPendingAndDoneSurvivesARestart()
    {
        Subscription work = subscribe(SubscriptionSettings.builder());
        fx.publishWith("orders", "short", QueueHeaders.TTL, "1000");
        fx.publishWith("orders", "long", QueueHeaders.TTL, "5000");
        fx.publish("orders", "plain");
        work.sync();
        fx.advance(work, 1_000);
        assertThat(deadValues(1)).containsExactly("short");
        fx.reopen();
        work = fx.spool.subscription("work");
        fx.advance(work, 4_000);

        assertThat(deadValues(2)).containsExactly("short", "long");
        assertThat(values(work.receive(10, 0))).containsExactly("plain");
    }

    @Test
    void aHeldMessageARestartGivesBackStillExpiresOnTimeWhenTheCursorMeetsNewerOnesFirst()
    {
        fx.spool.createSubscription("work", "orders", SubscriptionSettings.builder()
            .deadLetterTopic("orders.dlq").messageGroups(GroupMode.ORDERED, GroupKeySource.HEADER).build());
        fx.publishWith("orders", "short", QueueHeaders.TTL, "1000");
        assertThat(values(fx.spool.subscription("work").receive(1, 0))).containsExactly("short");
        fx.publishWith("orders", "A0", QueueHeaders.GROUP_ID, "A");

        fx.reopen();
        final Subscription work = fx.spool.subscription("work");
        work.sync();
        fx.advance(work, 1_000);
        assertThat(deadValues(1)).containsExactly("short");
        assertThat(values(work.receive(10, 0))).containsExactly("A0");
    }

    @Test
    void aTtlOutOfRangeIsRefused()
    {
        assertThatThrownBy(() -> SubscriptionSettings.builder().messageTtlMillis(-5).build())
            .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("message TTL")
            .hasMessageContaining("-5 ms");
    }

    @Test
    void aMessageWaitingBehindItsGroupExpiresOnTimeAndIsPassedOver()
    {
        final Subscription work = fx.spool.createSubscription("work", "orders", SubscriptionSettings.builder()
            .deadLetterTopic("orders.dlq").messageGroups(GroupMode.ORDERED, GroupKeySource.HEADER).build());
        fx.publishWith("orders", "A0", QueueHeaders.GROUP_ID, "A");
        fx.publishWith("orders", "A1", QueueHeaders.GROUP_ID, "A", QueueHeaders.TTL, "1000");
        fx.publishWith("orders", "A2", QueueHeaders.GROUP_ID, "A");
        final Delivery head = work.receive(1, 0).get(0);
        fx.advance(work, 1_000);

        assertThat(deadValues(1)).containsExactly("A1");
        work.ack(head.receipt());
        assertThat(values(work.receive(10, 0))).containsExactly("A2");
    }

    @Test
    void aShortLivedMessageAfterSegmentsOfPlainOnesStillExpires()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder());
        final String[] plain = new String[4_000];
        for (int i = 0; i < plain.length; i++)
        {
            plain[i] = "plain " + i;
        }
        fx.publish("orders", plain);
        final long shortLived = fx.publishWith("orders", "one millisecond", QueueHeaders.TTL, "1");
        fx.publish("orders", "after");
        assertThat(fx.spool.streams().topics().topic("orders").partition(0).segmentCount())
            .as("the plain messages fill segments of their own before the one with headers").isGreaterThan(2);
        work.sync();
        work.sync();

        fx.advance(work, 2);
        assertThat(deadValues(1)).containsExactly("one millisecond");
        final List<Delivery> delivered = work.receive(5_000, 0);
        assertThat(delivered).hasSize(plain.length + 1).noneMatch(d -> d.offset() == shortLived);
        assertThat(work.metrics().dead()).isEqualTo(1);
    }
}
