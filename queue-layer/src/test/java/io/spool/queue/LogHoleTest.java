package io.spool.queue;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.TopicPartition;
import io.spool.log.LogFixture;
import io.spool.log.LogHole;
import io.spool.log.PartitionLog;
import io.spool.stream.ConsumerConfig;
import io.spool.stream.StreamConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A record damaged in a closed segment costs the rest of that segment and nothing after it: a subscription and a
 * stream consumer both read on past the hole, and the subscription's ack floor passes it once the messages after it
 * are acked.
 */
class LogHoleTest
{
    private static final int MESSAGES = 2_000;

    @TempDir
    Path dir;

    @Test
    void queueAndStreamReadersPassOverAHoleAndLoseNothingAfterIt()
    {
        try (QueueFixture fx = new QueueFixture(dir))
        {
            fx.topic("orders", 1);
            for (int i = 0; i < MESSAGES; i++)
            {
                fx.spool.newProducer().send("orders", null, value(i));
            }
            fx.publish("orders", "last");
        }
        LogFixture.damageRecordHolding(dir.resolve("topics/orders/0"), value(100));

        try (QueueFixture fx = new QueueFixture(dir))
        {
            final PartitionLog log = fx.spool.streams().topics().topic("orders").partition(0);
            assertThat(log.holes()).hasSize(1);
            final LogHole hole = log.holes().get(0);
            assertThat(hole.fromOffset()).isEqualTo(100);
            assertThat(hole.toOffset()).isLessThan(MESSAGES);
            final List<String> survivors = new ArrayList<>();
            for (int i = 0; i <= MESSAGES; i++)
            {
                if (i < hole.fromOffset() || i >= hole.toOffset())
                {
                    survivors.add(i == MESSAGES ? "last" : new String(value(i), StandardCharsets.UTF_8));
                }
            }

            final Subscription work = fx.spool.createSubscription("work", "orders", SubscriptionSettings.DEFAULT);
            final List<String> delivered = new ArrayList<>();
            List<Delivery> batch;
            while (!(batch = work.receive(500, 0)).isEmpty())
            {
                delivered.addAll(QueueFixture.values(batch));
                batch.forEach(delivery -> work.ack(delivery.receipt()));
            }
            assertThat(delivered).isEqualTo(survivors);
            work.sync();
            assertThat(work.metrics().ready()).isZero();
            assertThat(work.metrics().inFlight()).isZero();

            try (StreamConsumer consumer = fx.spool.newConsumer(ConsumerConfig.standalone()))
            {
                final TopicPartition partition = new TopicPartition("orders", 0);
                consumer.assign(List.of(partition));
                consumer.seek(partition, hole.fromOffset() + 1);
                final List<ConsumerRecord> records = consumer.poll(3, 1 << 20, Duration.ZERO);
                assertThat(records).extracting(ConsumerRecord::offset)
                    .containsExactly(hole.toOffset(), hole.toOffset() + 1, hole.toOffset() + 2);
                assertThat(consumer.position(partition)).isEqualTo(hole.toOffset() + 3);
            }
        }
    }

    private static byte[] value(final int i)
    {
        return String.format("message-%05d-%s", i, "x".repeat(80)).getBytes(StandardCharsets.UTF_8);
    }
}
