package io.spool.queue;

import io.spool.api.queue.OverflowPolicy;
import io.spool.api.queue.QueueHeaders;
import io.spool.api.queue.SubscriptionMetrics;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ProducerRecord;
import io.spool.queue.internal.state.MessageState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

import static io.spool.queue.QueueFixture.values;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A message published with a delivery time cannot be received before it, so it is not ready: it counts as delayed
 * from the moment it is stored, in the metrics, in the oldest ready age and in the overflow bounds, before any
 * receive passed over it, as SQS counts ApproximateNumberOfMessagesDelayed apart.
 */
class DelayedOnPublishTest
{
    private static final long DELAY_MILLIS = 5_000;

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

    @Test
    void theMetricsCountDelayedMessagesAsDelayedBeforeAnyReceiveAndReadyOnceDue()
    {
        final Subscription work = fx.spool.createSubscription("work", "orders", SubscriptionSettings.DEFAULT);
        publishDelayed("later 1");
        publishDelayed("later 2");
        fx.advance(work, 1_000);
        fx.publish("orders", "now");
        fx.advance(work, 250);

        final SubscriptionMetrics before = work.metrics();
        assertThat(before.ready()).isEqualTo(1);
        assertThat(before.delayed()).isEqualTo(2);
        assertThat(before.oldestReadyAgeMillis()).as("the age of the one ready message, not of a delayed one")
            .isEqualTo(250);

        fx.advance(work, DELAY_MILLIS);
        final SubscriptionMetrics due = work.metrics();
        assertThat(due.ready()).isEqualTo(3);
        assertThat(due.delayed()).isZero();
        assertThat(values(work.receive(10, 0))).containsExactlyInAnyOrder("later 1", "later 2", "now");
    }

    @Test
    void delayedMessagesDoNotFillARejectPublishLimit()
    {
        final Subscription work = subscribe(OverflowPolicy.REJECT_PUBLISH);
        publishDelayed("later 1");
        publishDelayed("later 2");
        publishDelayed("later 3");
        work.sync();

        fx.spool.newProducer().send(record("now")).join();
        work.sync();
        assertThat(work.metrics().ready()).isEqualTo(1);
        assertThat(work.metrics().delayed()).isEqualTo(3);
    }

    @Test
    void aReopenedSubscriptionCountsTheDelayedMessagesItHasNotReachedAsDelayedBeforeItsAgentRuns()
    {
        subscribe(OverflowPolicy.REJECT_PUBLISH);
        publishDelayed("later 1");
        publishDelayed("later 2");
        publishDelayed("later 3");
        fx.reopen();

        fx.spool.newProducer().send(record("now")).join();
        final Subscription work = fx.spool.subscription("work");
        assertThat(work.metrics().delayed()).isEqualTo(3);
        assertThat(work.metrics().ready()).isEqualTo(1);
    }

    @Test
    void dropHeadDropsTheOldestReadyMessageAndNeverADelayedOne()
    {
        final Subscription work = subscribe(OverflowPolicy.DROP_HEAD);
        publishDelayed("later");
        fx.spool.newProducer().send(record("first")).join();
        fx.spool.newProducer().send(record("second")).join();
        fx.spool.newProducer().send(record("third")).join();
        work.sync();

        assertThat(fx.awaitRecords("orders.dlq", 1)).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
            .containsExactly("first");
        assertThat(work.metrics().delayed()).isEqualTo(1);
        assertThat(work.metrics().ready()).isEqualTo(2);
        fx.advance(work, DELAY_MILLIS);
        assertThat(fx.awaitRecords("orders.dlq", 2)).as("once due, it is the oldest ready message")
            .extracting(r -> new String(r.value(), StandardCharsets.UTF_8)).containsExactly("first", "later");
        assertThat(values(work.receive(10, 0))).containsExactly("second", "third");
    }

    @Test
    void theMessageStateOfAnUnreachedDelayedMessageIsDelayed()
    {
        final Subscription work = fx.spool.createSubscription("work", "orders", SubscriptionSettings.DEFAULT);
        publishDelayed("later");
        work.sync();

        assertThat(work.agent().partitions()[0].state().state(0)).isEqualTo(MessageState.DELAYED);
        fx.advance(work, DELAY_MILLIS);
        assertThat(work.agent().partitions()[0].state().state(0)).isEqualTo(MessageState.AVAILABLE);
    }

    private Subscription subscribe(final OverflowPolicy policy)
    {
        return fx.spool.createSubscription("work", "orders", SubscriptionSettings.builder()
            .deadLetterTopic("orders.dlq").overflow(2, SubscriptionSettings.NO_LIMIT, policy).build());
    }

    private void publishDelayed(final String value)
    {
        fx.spool.newProducer().send(new ProducerRecord("orders", 0, null,
            Map.of(QueueHeaders.DELAY, QueueHeaders.millis(DELAY_MILLIS)), value.getBytes(StandardCharsets.UTF_8)))
            .join();
    }

    private static ProducerRecord record(final String value)
    {
        return new ProducerRecord("orders", 0, null, Map.of(), value.getBytes(StandardCharsets.UTF_8));
    }
}
