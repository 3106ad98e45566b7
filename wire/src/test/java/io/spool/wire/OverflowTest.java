package io.spool.wire;

import io.spool.api.queue.OverflowPolicy;
import io.spool.api.queue.QueueFullException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.routing.Binding;
import io.spool.api.routing.ExchangeType;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.PublishResult;
import io.spool.api.stream.TopicPartition;
import io.spool.queue.DeathHistory;
import io.spool.queue.Router;
import io.spool.queue.Subscription;
import io.spool.wire.client.ProducerConfig;
import io.spool.wire.client.RemoteDelivery;
import io.spool.wire.client.RemoteProducer;
import io.spool.wire.client.RemoteStreamConsumer;
import io.spool.wire.client.RemoteSubscription;
import io.spool.wire.client.SpoolClient;
import io.spool.wire.server.ServerConfig;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import static io.spool.wire.RoundTripTest.bytes;
import static io.spool.wire.RoundTripTest.ignoringListener;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A publish over the network meets the subscriptions' overflow limits as an embedded one does: refused whole with
 * {@link QueueFullException}, nothing stored, and dead-lettered under reject-publish-dlx. Every publish path is
 * refused by the same gate, in the same words. Each subscription's agent
 * is driven by {@link Subscription#sync()} on a clock that stands still, so the full flag is current without sleeping
 * and a dead letter's time is the test's.
 */
class OverflowTest
{
    private static final Duration BOUND = Duration.ofSeconds(10);
    private static final long NOW = 1_000_000;

    @TempDir
    Path dir;
    private final CachedEpochClock clock = new CachedEpochClock();
    private WireFixture fixture;
    private SpoolClient client;
    /** Sends each record in its own PUBLISH frame. */
    private RemoteProducer producer;

    @BeforeEach
    void start()
    {
        clock.update(NOW);
        fixture = new WireFixture(dir, ServerConfig.builder(), clock);
        client = fixture.connect();
        client.admin().createTopic("orders", WireFixture.topic(1));
        client.admin().createTopic("orders.dlq", WireFixture.topic(1));
        producer = client.newProducer(ProducerConfig.builder().lingerMillis(0).build(), ignoringListener());
    }

    @AfterEach
    void stop()
    {
        fixture.close();
    }

    @Test
    void aSinglePublishPastTheMaxLengthIsRefusedUntilTheConsumerAcks()
    {
        final Subscription work = subscribe(2, OverflowPolicy.REJECT_PUBLISH);
        producer.send("orders", null, bytes("a")).join();
        producer.send("orders", null, bytes("b")).join();
        awaitFull(work, true);

        assertThatThrownBy(() -> producer.send("orders", null, bytes("c")).join())
            .isInstanceOf(CompletionException.class).cause().isInstanceOfSatisfying(QueueFullException.class,
                full -> assertThat(full.subscription()).isEqualTo("work"))
            .hasMessageContaining("2 ready messages (max 2)");
        assertThat(endOffset("orders")).isEqualTo(2);

        final RemoteSubscription queue = client.subscription("work");
        final RemoteDelivery first = queue.receive(1, 0).get(0);
        queue.ack(first.receipt());
        awaitFull(work, false);

        final PublishResult stored = producer.send("orders", null, bytes("c")).join();
        assertThat(stored.offset()).isEqualTo(2);
        assertThat(values("orders", 3)).containsExactly("a", "b", "c");
    }

    @Test
    void aBatchToAFullSubscriptionIsRefusedWholeAndNothingOfItIsStored()
    {
        final Subscription work = fullWithOneKept(OverflowPolicy.REJECT_PUBLISH);

        assertRefused(sendAsOneFrame("refused 1", "refused 2", "refused 3"));
        assertThat(endOffset("orders")).isEqualTo(1);
        assertThat(work.receive(10, 0)).hasSize(1);
    }

    @Test
    void refusedRecordsUnderRejectPublishDlxGoToTheDeadLetterTopicWithReasonMaxlen()
    {
        fullWithOneKept(OverflowPolicy.REJECT_PUBLISH_DLX);

        assertRefused(List.of(producer.send("orders", null, bytes("refused"))));
        assertRefused(sendAsOneFrame("refused 1", "refused 2"));

        final List<ConsumerRecord> dead = records("orders.dlq", 3);
        assertThat(dead).extracting(r -> new String(r.value(), StandardCharsets.UTF_8))
            .containsExactly("refused", "refused 1", "refused 2");
        assertThat(dead).allSatisfy(r ->
        {
            assertThat(header(r, DeathHistory.REASON)).isEqualTo("maxlen");
            assertThat(header(r, DeathHistory.SUBSCRIPTION)).isEqualTo("work");
            assertThat(header(r, DeathHistory.LAST_TIME)).isEqualTo(Long.toString(NOW));
        });
        assertThat(endOffset("orders")).isEqualTo(1);
    }

    /** Every way into the engine that must pass its one {@link io.spool.queue.PublishGate}. */
    enum PublishPath
    {
        EMBEDDED_PRODUCER, EMBEDDED_BATCH, ROUTER, EXCHANGE, NETWORK
    }

    @ParameterizedTest
    @EnumSource(PublishPath.class)
    void everyPublishPathIsRefusedByTheOneGateInTheSameWords(final PublishPath path)
    {
        fullWithOneKept(OverflowPolicy.REJECT_PUBLISH);
        final Router router = fixture.spool().router();
        router.declare("orders-fanout", ExchangeType.FANOUT, null);
        router.bind("orders-fanout", Binding.fanout("work"));
        final Throwable byTheGate = refusal(() -> router.gate().admit(ProducerRecord.of("orders", null, bytes("x"))));

        final Throwable refused = refusal(() -> publish(path, "refused"));

        assertThat(byTheGate).isInstanceOf(QueueFullException.class);
        assertThat(refused).isInstanceOfSatisfying(QueueFullException.class,
            full -> assertThat(full.subscription()).isEqualTo("work")).hasMessageContaining(byTheGate.getMessage());
        assertThat(endOffset("orders")).isEqualTo(1);
    }

    /** The stream layer's producer sits below the subscriptions: the one path the gate documents it does not cover. */
    @Test
    void theStreamProducerPublishesWithoutTheGate()
    {
        fullWithOneKept(OverflowPolicy.REJECT_PUBLISH);

        final PublishResult stored = fixture.spool().streams().newProducer()
            .send(ProducerRecord.of("orders", null, bytes("raw"))).join();

        assertThat(stored.offset()).isEqualTo(1);
    }

    private void publish(final PublishPath path, final String value)
    {
        final ProducerRecord record = ProducerRecord.of("orders", null, bytes(value));
        switch (path)
        {
            case EMBEDDED_PRODUCER -> fixture.spool().newProducer().send(record).join();
            case EMBEDDED_BATCH -> fixture.spool().newProducer().sendBatch(List.of(record)).join();
            case ROUTER -> fixture.spool().router().send(record).join();
            case EXCHANGE -> fixture.spool().router().publish("orders-fanout", "", null, null, bytes(value), false)
                .join();
            case NETWORK -> producer.send("orders", null, bytes(value)).join();
        }
    }

    /** What a publish threw, synchronously or through its future. */
    private static Throwable refusal(final Runnable publish)
    {
        final Throwable thrown = catchThrowable(publish::run);
        return thrown instanceof CompletionException ? thrown.getCause() : thrown;
    }

    /** Created over the wire; the engine's subscription is returned so the test can drive its agent. */
    private Subscription subscribe(final long maxLength, final OverflowPolicy policy)
    {
        client.admin().createSubscription("work", "orders", SubscriptionSettings.builder()
            .overflow(maxLength, SubscriptionSettings.NO_LIMIT, policy).deadLetterTopic("orders.dlq").build());
        return fixture.spool().subscription("work");
    }

    /** A subscription with max length 1, holding "kept", that publishers see full. */
    private Subscription fullWithOneKept(final OverflowPolicy policy)
    {
        final Subscription work = subscribe(1, policy);
        producer.send("orders", null, bytes("kept")).join();
        awaitFull(work, true);
        return work;
    }

    private static void assertRefused(final List<CompletableFuture<PublishResult>> publishes)
    {
        assertThat(publishes).allSatisfy(future -> assertThatThrownBy(future::join)
            .isInstanceOf(CompletionException.class).cause().isInstanceOf(QueueFullException.class));
    }

    /**
     * Runs passes of the subscription's agent until publishers see it full (or not): a pass may start before the
     * last publish reached the log and count without it.
     */
    private void awaitFull(final Subscription work, final boolean full)
    {
        assertThat(WireFixture.await(() ->
        {
            work.sync();
            return fixture.spool().router().gate().refuses("orders") == full;
        }, BOUND)).isTrue();
    }

    /** Sends records that one PUBLISH frame carries: nothing goes out before the flush. */
    private List<CompletableFuture<PublishResult>> sendAsOneFrame(final String... values)
    {
        final RemoteProducer batching = client.newProducer(ProducerConfig.builder().lingerMillis(600_000)
            .batchBytes(1 << 20).build(), ignoringListener());
        final List<CompletableFuture<PublishResult>> futures = new ArrayList<>();
        for (final String value : values)
        {
            futures.add(batching.send("orders", null, bytes(value)));
        }
        batching.flush();
        return futures;
    }

    private long endOffset(final String topic)
    {
        return client.admin().describeTopic(topic).partitions().get(0).endOffset();
    }

    private List<String> values(final String topic, final int count)
    {
        return records(topic, count).stream().map(r -> new String(r.value(), StandardCharsets.UTF_8)).toList();
    }

    /** Exactly {@code count} records of the topic's partition 0, polled until they are there (bounded). */
    private List<ConsumerRecord> records(final String topic, final int count)
    {
        final RemoteStreamConsumer consumer = client.newStreamReader();
        consumer.assign(List.of(new TopicPartition(topic, 0)));
        final List<ConsumerRecord> records = new ArrayList<>();
        assertThat(WireFixture.await(() ->
        {
            records.addAll(consumer.poll(10, 1 << 20, Duration.ZERO));
            return records.size() >= count;
        }, BOUND)).isTrue();
        assertThat(consumer.poll(10, 1 << 20, Duration.ZERO)).isEmpty();
        return records;
    }

    private static String header(final ConsumerRecord record, final String name)
    {
        final byte[] value = record.headers().get(name);
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }
}
