package io.spool.queue;

import io.spool.api.log.DedupKey;
import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.InvalidSettingsException;
import io.spool.api.queue.OverflowPolicy;
import io.spool.api.queue.QueueFullException;
import io.spool.api.queue.QueueHeaders;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ProducerRecord;
import io.spool.log.LogReader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static io.spool.queue.QueueFixture.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Max length and max bytes per subscription, with drop-head, reject-publish and reject-publish-dlx.
 */
class OverflowTest
{
    @TempDir
    Path dir;
    @TempDir
    Path crashed;
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

    private Subscription subscribe(final long maxLength, final long maxBytes, final OverflowPolicy policy)
    {
        return fx.spool.createSubscription("work", "orders", SubscriptionSettings.builder()
            .deadLetterTopic("orders.dlq").overflow(maxLength, maxBytes, policy).build());
    }

    private List<String> deadValues(final int count)
    {
        return fx.awaitRecords("orders.dlq", count).stream().peek(r ->
            assertThat(QueueFixture.header(r, DeathHistory.REASON)).isEqualTo("maxlen"))
            .map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
    }

    /** The bytes the first record of a topic's partition 0 takes in the log. */
    private int firstFrameLength(final String topic)
    {
        try (LogReader reader = fx.spool.streams().topics().topic(topic).partition(0).newReader())
        {
            final int[] frame = new int[1];
            reader.poll(r -> frame[0] = r.frameLength(), 1);
            return frame[0];
        }
    }

    private ProducerRecord record(final String value)
    {
        return new ProducerRecord("orders", 0, null, Map.of(), value.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void dropHeadDeadLettersTheOldestBeyondTheMaxLengthAcrossARestart()
    {
        final Subscription work = subscribe(3, SubscriptionSettings.NO_LIMIT, OverflowPolicy.DROP_HEAD);
        fx.publish("orders", "a", "b", "c");
        work.sync();
        fx.reopen();
        fx.publish("orders", "d", "e");
        final Subscription reopened = fx.spool.subscription("work");
        reopened.sync();

        assertThat(deadValues(2)).containsExactly("a", "b");
        assertThat(values(reopened.receive(10, 0))).containsExactly("c", "d", "e");
    }

    @Test
    void dropHeadKeepsTheUndeliveredBytesWithinMaxBytes()
    {
        fx.publish("orders", "0123456789");
        final int size = firstFrameLength("orders");
        final Subscription work = subscribe(SubscriptionSettings.NO_LIMIT, 2L * size + size / 2,
            OverflowPolicy.DROP_HEAD);
        fx.publish("orders", "1123456789", "2123456789");
        work.sync();
        work.sync();

        assertThat(deadValues(1)).containsExactly("0123456789");
        assertThat(values(work.receive(10, 0))).containsExactly("1123456789", "2123456789");
    }

    @Test
    void rejectPublishRefusesWithABackPressureErrorUntilConsumersCatchUp()
    {
        final Subscription work = subscribe(2, SubscriptionSettings.NO_LIMIT, OverflowPolicy.REJECT_PUBLISH);
        final Router router = fx.spool.router();
        router.send(record("a")).join();
        router.send(record("b")).join();
        work.sync();
        work.sync();

        assertThatThrownBy(() -> router.send(record("c"))).isInstanceOf(QueueFullException.class)
            .hasMessageContaining("subscription work of topic orders is full")
            .hasMessageContaining("2 ready messages (max 2)")
            .satisfies(e -> assertThat(((QueueFullException)e).subscription()).isEqualTo("work"));
        work.ack(work.receive(1, 0).get(0).receipt());
        work.sync();
        router.send(record("c")).join();
        assertThat(values(work.receive(10, 0))).containsExactly("b", "c");
        assertThat(fx.readTopic("orders.dlq")).isEmpty();
    }

    @Test
    void rejectPublishDlxDeadLettersTheRefusedMessage()
    {
        final Subscription work = subscribe(1, SubscriptionSettings.NO_LIMIT, OverflowPolicy.REJECT_PUBLISH_DLX);
        fx.spool.router().send(record("kept")).join();
        work.sync();
        work.sync();

        assertThatThrownBy(() -> fx.spool.router().send(record("refused"))).isInstanceOf(QueueFullException.class);
        assertThat(deadValues(1)).containsExactly("refused");
        assertThat(values(work.receive(10, 0))).containsExactly("kept");
    }

    @Test
    void eachRefusalOfARetriedPublishUnderRejectPublishDlxIsDeadLetteredWithItsDedupId()
    {
        final Subscription work = subscribe(1, SubscriptionSettings.NO_LIMIT, OverflowPolicy.REJECT_PUBLISH_DLX);
        fx.spool.router().send(record("kept")).join();
        work.sync();
        final ProducerRecord retried = new ProducerRecord("orders", 0, null,
            Map.of(DedupKey.HEADER, "order-7".getBytes(StandardCharsets.UTF_8)),
            "refused".getBytes(StandardCharsets.UTF_8));

        assertThatThrownBy(() -> fx.spool.router().send(retried)).isInstanceOf(QueueFullException.class);
        assertThatThrownBy(() -> fx.spool.newProducer().send(retried)).isInstanceOf(QueueFullException.class);
        assertThat(deadValues(2)).containsExactly("refused", "refused");
        assertThat(fx.readTopic("orders.dlq")).extracting(r -> QueueFixture.header(r, DedupKey.HEADER))
            .containsExactly("order-7", "order-7");
    }

    @Test
    void aPlainPublishIsRefusedByAFullSubscriptionAcrossARestart()
    {
        final Subscription work = subscribe(2, SubscriptionSettings.NO_LIMIT, OverflowPolicy.REJECT_PUBLISH);
        fx.publish("orders", "a", "b");
        work.sync();
        work.sync();
        assertThatThrownBy(() -> fx.spool.newProducer().send(record("c"))).isInstanceOf(QueueFullException.class)
            .hasMessageContaining("2 ready messages (max 2)")
            .satisfies(e -> assertThat(((QueueFullException)e).subscription()).isEqualTo("work"));

        fx.reopen();
        // No pass of the reopened subscription has run yet: the limit holds from the start.
        assertThatThrownBy(() -> fx.spool.newProducer().send("orders", null, "c".getBytes(StandardCharsets.UTF_8)))
            .isInstanceOf(QueueFullException.class);
        final Subscription reopened = fx.spool.subscription("work");
        reopened.ack(reopened.receive(1, 0).get(0).receipt());
        reopened.sync();
        fx.spool.newProducer().send(record("c")).join();
        assertThat(values(reopened.receive(10, 0))).containsExactly("b", "c");
        assertThat(fx.readTopic("orders.dlq")).isEmpty();
    }

    @Test
    void aPlainPublishOrBatchRefusedUnderRejectPublishDlxIsDeadLetteredAcrossARestart()
    {
        final Subscription work = subscribe(1, SubscriptionSettings.NO_LIMIT, OverflowPolicy.REJECT_PUBLISH_DLX);
        fx.publish("orders", "kept");
        work.sync();
        work.sync();
        assertThatThrownBy(() -> fx.spool.newProducer().sendBatch(List.of(record("refused 1"), record("refused 2"))))
            .isInstanceOf(QueueFullException.class);

        fx.reopen();
        assertThatThrownBy(() -> fx.spool.newProducer().send(record("refused 3")))
            .isInstanceOf(QueueFullException.class);
        assertThat(deadValues(3)).containsExactly("refused 1", "refused 2", "refused 3");
        assertThat(values(fx.spool.subscription("work").receive(10, 0))).containsExactly("kept");
    }

    @Test
    void theStreamProducerPublishesPastTheLimit()
    {
        final Subscription work = subscribe(1, SubscriptionSettings.NO_LIMIT, OverflowPolicy.REJECT_PUBLISH);
        fx.publish("orders", "a");
        work.sync();
        work.sync();
        fx.spool.streams().newProducer().send(record("b")).join();
        work.sync();
        assertThat(values(work.receive(10, 0))).containsExactly("a", "b");
    }

    @Test
    void maxBytesCountsTheFrameBytesOfExactlyTheReadyMessagesAcrossARestart()
    {
        fx.topic("sizes", 1);
        fx.publish("sizes", "a");
        final int frame = firstFrameLength("sizes");
        final Subscription work = subscribe(SubscriptionSettings.NO_LIMIT, 3L * frame, OverflowPolicy.REJECT_PUBLISH);
        fx.publish("orders", "a", "b", "c");
        work.sync();
        assertFull("3 ready messages (max none) and " + 3 * frame + " ready bytes (max " + 3 * frame + ")");

        // A message in a consumer's hands is not ready: its bytes stop counting, to the byte.
        final Delivery a = work.receive(1, 0).get(0);
        work.sync();
        fx.spool.newProducer().send(record("d")).join();
        work.sync();
        assertFull("3 ready messages (max none) and " + 3 * frame + " ready bytes");

        // Released, it is ready again and counts again; so it does after a restart, before any pass.
        work.nack(a.receipt());
        fx.reopen();
        assertFull("4 ready messages (max none) and " + 4 * frame + " ready bytes");
        final Subscription reopened = fx.spool.subscription("work");
        for (final Delivery delivery : reopened.receive(2, 0))
        {
            reopened.ack(delivery.receipt());
        }
        reopened.sync();
        fx.spool.newProducer().send(record("e")).join();
        assertThat(values(reopened.receive(10, 0))).containsExactly("c", "d", "e");
    }

    @Test
    void aMessagePushedInThePassThatFoundTheSubscriptionFullFreesItsPlaceByTheEndOfThatPass()
    {
        final Subscription work = subscribe(1, SubscriptionSettings.NO_LIMIT, OverflowPolicy.REJECT_PUBLISH);
        // The consumer holds what it is pushed: "a" stays in flight.
        try (QueueConsumer consumer = work.consume(ConsumerOptions.prefetch(1), (delivery, c) -> { }))
        {
            // The pass that meets "a" counts it ready, so full, before it pushes it; the flag publishers read must
            // be the one the pass leaves, or "b" is refused until a later pass happens to run.
            fx.spool.newProducer().send(record("a")).join();
            work.sync();
            fx.spool.newProducer().send(record("b")).join();
            work.sync();
            assertThat(work.metrics().inFlight()).isEqualTo(1);
            assertFull("1 ready messages (max 1)");
        }
    }

    @Test
    void aMessageThatExpiredUndeliveredCountsForNoBytesAfterACrash()
    {
        fx.topic("sizes", 1);
        fx.publish("sizes", "a");
        final int frame = firstFrameLength("sizes");
        final Subscription work = fx.spool.createSubscription("work", "orders", SubscriptionSettings.builder()
            .deadLetterTopic("orders.dlq").overflow(SubscriptionSettings.NO_LIMIT, 2L * frame + frame / 2,
                OverflowPolicy.REJECT_PUBLISH).build());
        fx.publishWith("orders", "short", QueueHeaders.TTL, "1");
        fx.advance(work, 1);
        assertThat(fx.awaitRecords("orders.dlq", 1)).extracting(r -> QueueFixture.header(r, DeathHistory.REASON))
            .containsExactly("expired");

        fx = fx.crashInto(crashed);
        final Subscription reopened = fx.spool.subscription("work");
        for (final String value : List.of("a", "b", "c"))
        {
            fx.spool.newProducer().send(record(value)).join();
            reopened.sync();
        }
        assertFull("3 ready messages (max none) and " + 3 * frame + " ready bytes");
    }

    @Test
    void aHeldMessagePastItsTimeToLiveExpiresAsARestartReturnsItAndDropHeadLeavesTheRest()
    {
        final Subscription work = subscribe(1, SubscriptionSettings.NO_LIMIT, OverflowPolicy.DROP_HEAD);
        fx.publishWith("orders", "held", QueueHeaders.TTL, "1");
        assertThat(values(work.receive(1, 0))).containsExactly("held");
        fx.publish("orders", "next");
        fx.advance(work, 1);

        fx.reopen();
        final Subscription reopened = fx.spool.subscription("work");
        reopened.sync();
        assertThat(fx.awaitRecords("orders.dlq", 1)).extracting(r -> QueueFixture.header(r, DeathHistory.REASON))
            .containsExactly("expired");
        assertThat(values(reopened.receive(10, 0))).containsExactly("next");
    }

    private void assertFull(final String backlog)
    {
        assertThatThrownBy(() -> fx.spool.newProducer().send(record("refused")))
            .isInstanceOf(QueueFullException.class).hasMessageContaining(backlog);
    }

    @Test
    void overflowLimitsAreChecked()
    {
        assertThatThrownBy(() -> SubscriptionSettings.builder().overflow(0, SubscriptionSettings.NO_LIMIT,
            OverflowPolicy.DROP_HEAD).build()).isInstanceOf(InvalidSettingsException.class)
            .hasMessageContaining("was 0 messages");
        assertThatThrownBy(() -> SubscriptionSettings.builder().overflow(5, 5, null).build())
            .isInstanceOf(InvalidSettingsException.class).hasMessageContaining("and null");
    }
}
