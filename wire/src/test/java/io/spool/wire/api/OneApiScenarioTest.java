package io.spool.wire.api;

import io.spool.Spool;
import io.spool.api.Admin;
import io.spool.api.Messaging;
import io.spool.api.queue.BatchResult;
import io.spool.api.queue.ConsumerOptions;
import io.spool.api.queue.Message;
import io.spool.api.queue.PushConsumer;
import io.spool.api.queue.QueueSubscription;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.SubscriptionMetrics;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.Producer;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.PublishResult;
import io.spool.api.stream.StreamReader;
import io.spool.api.stream.TopicPartition;
import io.spool.wire.WireFixture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One application, written against {@link Messaging} only, run on the embedded engine and through the client: it
 * publishes, replays by offset, receives and acks, nacks, extends, settles a batch, dead-letters on the delivery
 * limit (one redelivery allowed) and consumes by push with a prefetch. Both runs must tell the same story, and that story must be the one
 * the API promises.
 */
class OneApiScenarioTest
{
    private static final long WAIT_MILLIS = 10_000;

    @TempDir
    Path embeddedDir;
    @TempDir
    Path serverDir;

    @Test
    void theSameApplicationTellsTheSameStoryEmbeddedAndThroughTheClient() throws Exception
    {
        final List<String> embedded;
        try (Messaging spool = Spool.builder(embeddedDir).backgroundMaintenance(false).open())
        {
            embedded = scenario(spool);
        }
        final List<String> remote;
        try (WireFixture server = new WireFixture(serverDir); Messaging spool = server.connect())
        {
            remote = scenario(spool);
        }

        assertThat(remote).isEqualTo(embedded);
        assertThat(embedded).containsExactly(
            "published 0@0", "published 0@1", "published 0@2", "published 0@3", "published 0@4",
            "published batch [0@5, 0@6]",
            "replayed 3 order-3 n=3", "replayed 4 order-4 n=4", "replayed 5 order-5 n=5", "replayed 6 order-6 n=6",
            "replayed from the beginning 0 order-0",
            "received 0 #1", "received 1 #1", "received 2 #1",
            "acked 0", "extended and acked 1", "nacked 2",
            "received again 2 #2 redelivered",
            "a second ack of 0 refused: AlreadySettledException",
            "nacked 2 at its delivery limit",
            "batch acked [3, 4, 5, 6], refused 0",
            "billing: ready 0, in flight 0, dead 1",
            "dead letter order-2 from billing",
            "pushed while holding: 2 in flight, 5 ready",
            "pushed [0 #1, 1 #1, 0 #2, 2 #1, 3 #1, 4 #1, 5 #1, 6 #1]",
            "shipping: ready 0, in flight 0, acks 7");
    }

    /** The application: only interfaces of io.spool.api, so it cannot tell which Spool it talks to. */
    private static List<String> scenario(final Messaging spool) throws InterruptedException
    {
        final List<String> story = new ArrayList<>();
        final Admin admin = spool.admin();
        admin.createTopic("orders", WireFixture.topic(1));
        admin.createTopic("orders-dead", WireFixture.topic(1));
        admin.createSubscription("billing", "orders", SubscriptionSettings.builder()
            .deliveryLimit(1).deadLetterTopic("orders-dead").build());
        admin.createSubscription("shipping", "orders", SubscriptionSettings.DEFAULT);

        publish(spool, story);
        replay(spool, story);
        pullAndSettle(spool.subscription("billing"), admin, story);
        readDeadLetters(spool, story);
        push(spool.subscription("shipping"), admin, story);
        return story;
    }

    private static void publish(final Messaging spool, final List<String> story)
    {
        try (Producer producer = spool.newProducer())
        {
            for (int i = 0; i < 5; i++)
            {
                final PublishResult result = producer.send(new ProducerRecord("orders", ProducerRecord.ANY_PARTITION,
                    bytes("customer-7"), Map.of("n", bytes(String.valueOf(i))), bytes("order-" + i))).join();
                story.add("published " + result.partition() + "@" + result.offset());
            }
            final List<PublishResult> batch = producer.sendBatch(List.of(
                new ProducerRecord("orders", 0, null, Map.of("n", bytes("5")), bytes("order-5")),
                new ProducerRecord("orders", 0, null, Map.of("n", bytes("6")), bytes("order-6")))).join();
            story.add("published batch " + batch.stream().map(r -> r.partition() + "@" + r.offset()).toList());
        }
    }

    private static void replay(final Messaging spool, final List<String> story)
    {
        final TopicPartition orders = new TopicPartition("orders", 0);
        try (StreamReader reader = spool.newStreamReader())
        {
            reader.assign(List.of(orders));
            reader.seek(orders, 3);
            final List<ConsumerRecord> records = new ArrayList<>();
            while (records.size() < 4)
            {
                records.addAll(reader.poll(10, 1 << 20, Duration.ofMillis(WAIT_MILLIS)));
            }
            records.forEach(r -> story.add("replayed " + r.offset() + " " + text(r.value()) + " n=" +
                text(r.headers().get("n"))));
            reader.seekToBeginning(List.of(orders));
            final ConsumerRecord first = reader.poll(1, 1 << 20, Duration.ofMillis(WAIT_MILLIS)).get(0);
            story.add("replayed from the beginning " + first.offset() + " " + text(first.value()));
        }
    }

    private static void pullAndSettle(final QueueSubscription billing, final Admin admin, final List<String> story)
    {
        final List<? extends Message> first = billing.receive(3, WAIT_MILLIS);
        first.forEach(m -> story.add("received " + m.offset() + " #" + m.deliveryNumber()));
        billing.ack(first.get(0).receipt());
        story.add("acked 0");
        billing.extend(first.get(1).receipt(), 60_000);
        billing.ack(first.get(1).receipt());
        story.add("extended and acked 1");
        billing.nack(first.get(2).receipt());
        story.add("nacked 2");

        final Message again = billing.receive(1, WAIT_MILLIS).get(0);
        story.add("received again " + again.offset() + " #" + again.deliveryNumber() +
            (again.redelivered() ? " redelivered" : ""));
        try
        {
            billing.ack(first.get(0).receipt());
            story.add("a second ack of 0 was taken");
        }
        catch (final RuntimeException refused)
        {
            story.add("a second ack of 0 refused: " + refused.getClass().getSimpleName());
        }
        billing.nack(again.receipt());
        story.add("nacked 2 at its delivery limit");

        final List<Receipt> rest = new ArrayList<>();
        final List<Long> restOffsets = new ArrayList<>();
        while (rest.size() < 4)
        {
            for (final Message m : billing.receive(10, WAIT_MILLIS))
            {
                rest.add(m.receipt());
                restOffsets.add(m.offset());
            }
        }
        final BatchResult acked = billing.ack(rest);
        story.add("batch acked " + restOffsets + ", refused " + acked.failed().size());
        final var metrics = admin.describeSubscription("billing").metrics();
        story.add("billing: ready " + metrics.ready() + ", in flight " + metrics.inFlight() + ", dead " +
            metrics.dead());
    }

    private static void readDeadLetters(final Messaging spool, final List<String> story)
    {
        final TopicPartition dead = new TopicPartition("orders-dead", 0);
        try (StreamReader reader = spool.newStreamReader())
        {
            reader.assign(List.of(dead));
            reader.seekToBeginning(List.of(dead));
            final List<ConsumerRecord> letters = reader.poll(10, 1 << 20, Duration.ofMillis(WAIT_MILLIS));
            letters.forEach(r -> story.add("dead letter " + text(r.value()) + " from " +
                text(r.headers().get("x-death-subscription"))));
        }
    }

    private static void push(final QueueSubscription shipping, final Admin admin, final List<String> story)
        throws InterruptedException
    {
        final BlockingQueue<String> pushed = new LinkedBlockingQueue<>();
        final BlockingQueue<Receipt> held = new LinkedBlockingQueue<>();
        final List<String> order = new ArrayList<>();
        try (PushConsumer consumer = shipping.consume(ConsumerOptions.prefetch(2), (message, self) ->
        {
            pushed.add(message.offset() + " #" + message.deliveryNumber());
            if (message.offset() == 0 && message.deliveryNumber() == 1)
            {
                held.add(message.receipt());
            }
            else if (message.offset() == 1 && message.deliveryNumber() == 1)
            {
                held.add(message.receipt());
            }
            else
            {
                self.ack(message);
            }
        }))
        {
            final Receipt zero = held.poll(WAIT_MILLIS, TimeUnit.MILLISECONDS);
            final Receipt one = held.poll(WAIT_MILLIS, TimeUnit.MILLISECONDS);
            order.add(pushed.poll(WAIT_MILLIS, TimeUnit.MILLISECONDS));
            order.add(pushed.poll(WAIT_MILLIS, TimeUnit.MILLISECONDS));
            final var holding = admin.describeSubscription("shipping").metrics();
            story.add("pushed while holding: " + holding.inFlight() + " in flight, " + holding.ready() + " ready");
            consumer.nack(zero);
            consumer.ack(one);
            while (order.size() < 8)
            {
                order.add(pushed.poll(WAIT_MILLIS, TimeUnit.MILLISECONDS));
            }
            story.add("pushed " + order);
            final var settled = awaitAcks(admin, "shipping", 7);
            story.add("shipping: ready " + settled.ready() + ", in flight " + settled.inFlight() + ", acks " +
                settled.acks());
        }
    }

    /** Acks are applied by the subscription's agent after the call returns, so the figures catch up a moment later. */
    private static SubscriptionMetrics awaitAcks(final Admin admin, final String subscription, final long acks)
        throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS);
        SubscriptionMetrics metrics = admin.describeSubscription(subscription).metrics();
        while (metrics.acks() < acks && System.nanoTime() < deadline)
        {
            Thread.onSpinWait();
            metrics = admin.describeSubscription(subscription).metrics();
        }
        return metrics;
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(final byte[] bytes)
    {
        return bytes == null ? "null" : new String(bytes, StandardCharsets.UTF_8);
    }
}
