package io.spool.queue;

import io.spool.api.queue.GroupKeySource;
import io.spool.api.queue.GroupMode;
import io.spool.api.InvalidRequestException;
import io.spool.api.queue.InvalidSettingsException;
import io.spool.api.queue.QueueException;
import io.spool.api.queue.QueueHeaders;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.queue.UnknownSubscriptionException;
import io.spool.api.stream.UnknownTopicException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

import static io.spool.queue.QueueFixture.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What SQS's queue attributes and actions need of a live subscription: its settings changed in place, a purge, a
 * receive with its own lock, a long poll that holds no thread, and a delivery limit of 0.
 */
class SubscriptionChangesTest
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
    void aLiveSubscriptionTakesANewLockTimeoutForNewDeliveriesOnly()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder().lockTimeoutMillis(10_000));
        fx.publish("orders", "a", "b");
        final List<Delivery> held = work.receive(1, 0);

        fx.spool.updateSubscription("work", work.settings().toBuilder().lockTimeoutMillis(1_000).build());
        final List<Delivery> second = work.receive(1, 0);
        fx.advance(work, 1_000);

        assertThat(values(held)).containsExactly("a");
        assertThat(values(second)).containsExactly("b");
        assertThat(values(work.receive(10, 0))).as("only the delivery made after the change expired").containsExactly("b");
        assertThat(work.settings().lockTimeoutMillis()).isEqualTo(1_000);
    }

    @Test
    void aDeliveryLimitAndDeadLetterTopicSetLaterSendTheNextReturnToTheDeadLetterTopic()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder().lockTimeoutMillis(1_000)
            .deliveryLimit(SubscriptionSettings.UNLIMITED_DELIVERIES));
        fx.publish("orders", "poison");
        work.receive(1, 0);
        fx.advance(work, 1_000);
        work.receive(1, 0);

        fx.spool.updateSubscription("work", work.settings().toBuilder().deliveryLimit(1).deadLetterTopic("orders.dlq")
            .build());
        fx.advance(work, 1_000);

        assertThat(work.receive(10, 0)).as("two deliveries are past a limit of 1").isEmpty();
        assertThat(fx.awaitRecords("orders.dlq", 1).get(0).headers()).containsKey(DeathHistory.REASON);
        assertThat(work.metrics().dead()).isEqualTo(1);
    }

    @Test
    void changedSettingsOutliveARestart()
    {
        subscribe(SubscriptionSettings.builder());
        fx.spool.updateSubscription("work", SubscriptionSettings.builder().lockTimeoutMillis(2_000).deliveryLimit(3)
            .deadLetterTopic("orders.dlq").build());
        fx.reopen();

        final SubscriptionSettings settings = fx.spool.subscription("work").settings();
        assertThat(settings.lockTimeoutMillis()).isEqualTo(2_000);
        assertThat(settings.deliveryLimit()).isEqualTo(3);
        assertThat(settings.deadLetterTopic()).isEqualTo("orders.dlq");
    }

    @Test
    void otherSettingsAndMissingTopicsAreRefusedAndChangeNothing()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder());

        assertThatThrownBy(() -> fx.spool.updateSubscription("work", SubscriptionSettings.builder()
            .messageGroups(GroupMode.ORDERED, GroupKeySource.HEADER).build()))
            .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("only the lock timeout");
        assertThatThrownBy(() -> fx.spool.updateSubscription("work", SubscriptionSettings.builder()
            .deadLetterTopic("nowhere").build())).isInstanceOf(UnknownTopicException.class);
        assertThatThrownBy(() -> fx.spool.updateSubscription("nobody", SubscriptionSettings.DEFAULT))
            .isInstanceOf(UnknownSubscriptionException.class);
        assertThat(work.settings()).isEqualTo(SubscriptionSettings.DEFAULT);
    }

    @Test
    void aPurgeEmptiesTheSubscriptionAndItGoesOnFromTheEnd()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder());
        final Subscription other = fx.spool.createSubscription("other", "orders", SubscriptionSettings.DEFAULT);
        fx.publish("orders", "in-flight", "ready");
        fx.publishWith("orders", "delayed", QueueHeaders.DELAY, "60000");
        final Receipt held = work.receive(1, 0).get(0).receipt();

        final Subscription purged = fx.spool.purgeSubscription("work");
        fx.publish("orders", "after");

        final List<Delivery> after = purged.receive(10, 0);
        assertThat(values(after)).containsExactly("after");
        purged.ack(after.get(0).receipt());
        assertThatThrownBy(() -> purged.ack(held)).isInstanceOf(QueueException.class);
        assertThatThrownBy(() -> work.receive(1, 0)).as("the object before the purge is closed")
            .isInstanceOf(QueueException.class).hasMessageContaining("closed");
        assertThat(values(other.receive(10, 0))).as("other subscriptions keep theirs")
            .containsExactly("in-flight", "ready", "after");
        fx.advance(purged, 60_000);
        assertThat(purged.receive(10, 0)).isEmpty();
        fx.reopen();
        assertThat(fx.spool.subscription("work").receive(10, 0)).isEmpty();
    }

    @Test
    void aReceiveMayAskForItsOwnLock()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder().lockTimeoutMillis(60_000));
        fx.publish("orders", "a");
        work.receive(1, 0, 500);
        fx.advance(work, 500);

        assertThat(values(work.receive(1, 0))).containsExactly("a");
        assertThatThrownBy(() -> work.receive(1, 0, 0)).isInstanceOf(InvalidRequestException.class)
            .hasMessageContaining("lock must be between 1 ms");
    }

    @Test
    void anAsyncLongPollCompletesWhenAMessageArrives() throws Exception
    {
        final Subscription work = subscribe(SubscriptionSettings.builder());
        final CompletableFuture<List<Delivery>> waiting = work.receiveAsync(10, 20_000, 5_000);
        work.sync();
        assertThat(waiting).isNotDone();

        fx.publish("orders", "a");

        assertThat(values(waiting.get(30, TimeUnit.SECONDS))).containsExactly("a");
        final CompletableFuture<List<Delivery>> empty = work.receiveAsync(10, 1_000, 5_000);
        work.sync();
        fx.advance(work, 1_000);
        assertThat(empty.get(30, TimeUnit.SECONDS)).isEmpty();
    }

    @Test
    void anAsyncReceiveOnADeletedSubscriptionFailsInsteadOfWaiting()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder());
        fx.spool.deleteSubscription("work");

        assertThatThrownBy(() -> work.receiveAsync(1, 20_000, 1_000).join()).isInstanceOf(CompletionException.class)
            .hasCauseInstanceOf(QueueException.class).hasMessageContaining("closed");
    }

    @Test
    void aDeliveryLimitOfZeroDeliversOnce()
    {
        final Subscription work = subscribe(SubscriptionSettings.builder().lockTimeoutMillis(1_000).deliveryLimit(0)
            .deadLetterTopic("orders.dlq"));
        fx.publish("orders", "once");
        assertThat(values(work.receive(1, 0))).containsExactly("once");
        fx.advance(work, 1_000);

        assertThat(work.receive(1, 0)).isEmpty();
        fx.awaitRecords("orders.dlq", 1);
    }
}
