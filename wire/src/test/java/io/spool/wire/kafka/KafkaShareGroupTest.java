package io.spool.wire.kafka;

import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.queue.Subscription;
import io.spool.testing.CrashTest;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.AcknowledgeType;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaShareConsumer;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.spool.wire.kafka.KafkaProduceTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * KafkaShareConsumers in share groups that are Spool subscriptions: acknowledgements settle deliveries, delivery
 * counts and the delivery limit are the subscription's, a rejected or exhausted record reaches the dead-letter
 * topic, and a consumer killed mid-batch has its acquired records delivered again, counted once more.
 */
class KafkaShareGroupTest
{
    @TempDir
    Path dir;

    @Test
    void acknowledgementsSettleDeliveriesOfTheSubscriptionOfTheSameName() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir))
        {
            kafka.engine.createTopic("jobs", TopicConfig.of(2));
            kafka.engine.createTopic("jobs.dlq", TopicConfig.of(1));
            try (Admin admin = kafka.admin())
            {
                admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, "workers"), List.of(
                    set(ShareGroupSettings.AUTO_OFFSET_RESET, "earliest"),
                    set(ShareGroupSettings.DELIVERY_COUNT_LIMIT, "3"),
                    set(ShareGroupSettings.LOCK_DURATION, "60000"),
                    set(ShareGroupSettings.DEAD_LETTER_TOPIC, "jobs.dlq")))).all().get();
                final var described = admin.describeConfigs(List.of(
                    new ConfigResource(ConfigResource.Type.GROUP, "workers"))).all().get().values().iterator().next();
                assertThat(described.get(ShareGroupSettings.DELIVERY_COUNT_LIMIT).value()).isEqualTo("3");
            }
            for (int i = 0; i < 10; i++)
            {
                kafka.engine.newProducer().send(ProducerRecord.toPartition("jobs", i % 2, bytes("k" + i), bytes("r" + i)))
                    .join();
            }
            try (KafkaShareConsumer<byte[], byte[]> consumer = shareConsumer(kafka, "workers", "explicit"))
            {
                consumer.subscribe(List.of("jobs"));
                final Map<String, Integer> lastCount = new HashMap<>();
                final AtomicInteger accepted = new AtomicInteger();
                KafkaFixture.await("every record but the rejected and the exhausted one is accepted", () ->
                {
                    for (final var record : consumer.poll(Duration.ofMillis(200)))
                    {
                        final String value = new String(record.value(), StandardCharsets.UTF_8);
                        lastCount.put(value, (int)record.deliveryCount().orElseThrow());
                        if (value.equals("r1"))
                        {
                            consumer.acknowledge(record, AcknowledgeType.REJECT);
                        }
                        else if (value.equals("r2") || (value.equals("r3") && record.deliveryCount().get() == 1))
                        {
                            consumer.acknowledge(record, AcknowledgeType.RELEASE);
                        }
                        else
                        {
                            consumer.acknowledge(record, AcknowledgeType.RENEW);
                            consumer.acknowledge(record, AcknowledgeType.ACCEPT);
                            accepted.incrementAndGet();
                        }
                    }
                    consumer.commitSync();
                    return accepted.get() == 8 && lastCount.getOrDefault("r2", 0) == 3;
                });
                assertThat(lastCount.get("r3")).isEqualTo(2);
                assertThat(lastCount.get("r0")).isEqualTo(1);
            }
            final Subscription subscription = kafka.engine.subscription("workers");
            assertThat(subscription.topic()).isEqualTo("jobs");
            assertThat(subscription.settings().deliveryLimit()).as("redeliveries after the first").isEqualTo(2);
            assertThat(subscription.settings().lockTimeoutMillis()).isEqualTo(60_000);
            final List<ConsumerRecord> dead = KafkaProduceTest.readAll(kafka.engine, "jobs.dlq", 1, 2);
            assertThat(dead).extracting(record -> new String(record.value(), StandardCharsets.UTF_8))
                .containsExactlyInAnyOrder("r1", "r2");
            KafkaFixture.await("nothing is left in flight", () -> subscription.metrics().inFlight() == 0 &&
                subscription.metrics().ready() == 0);
        }
    }

    @Test
    @CrashTest
    void aConsumerKilledMidBatchHasItsRecordsDeliveredAgainWithTheirCountRaised() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir))
        {
            kafka.engine.createTopic("jobs", TopicConfig.of(2));
            try (Admin admin = kafka.admin())
            {
                // Locks far longer than the test: only the consumer's death can return its records.
                admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.GROUP, "pool"), List.of(
                    set(ShareGroupSettings.AUTO_OFFSET_RESET, "earliest"),
                    set(ShareGroupSettings.LOCK_DURATION, "600000")))).all().get();
            }
            for (int i = 0; i < 20; i++)
            {
                kafka.engine.newProducer().send(ProducerRecord.toPartition("jobs", i % 2, null, bytes("r" + i))).join();
            }
            final Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), KafkaShareChild.class.getName(), kafka.bootstrap(),
                "pool", "jobs").redirectErrorStream(true).start();
            final BufferedReader output = new BufferedReader(new InputStreamReader(child.getInputStream(),
                StandardCharsets.UTF_8));
            final int acquired;
            try
            {
                String line;
                do
                {
                    line = output.readLine();
                }
                while (line != null && !line.startsWith("acquired "));
                assertThat(line).as("the child's output").isNotNull();
                acquired = Integer.parseInt(line.substring("acquired ".length()));
            }
            finally
            {
                child.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
            try (KafkaShareConsumer<byte[], byte[]> survivor = shareConsumer(kafka, "pool", "implicit"))
            {
                survivor.subscribe(List.of("jobs"));
                final Map<String, Short> counts = new HashMap<>();
                KafkaFixture.await("the survivor receives every record", () ->
                {
                    survivor.poll(Duration.ofMillis(200)).forEach(record -> counts.put(
                        new String(record.value(), StandardCharsets.UTF_8), record.deliveryCount().orElseThrow()));
                    return counts.size() == 20;
                });
                survivor.commitSync();
                final List<Short> redelivered = new ArrayList<>(counts.values());
                redelivered.removeIf(count -> count != 2);
                assertThat(redelivered).as("records the killed consumer had acquired").hasSize(acquired);
                assertThat(counts.values()).allMatch(count -> count == 1 || count == 2);
            }
        }
    }

    private static AlterConfigOp set(final String name, final String value)
    {
        return new AlterConfigOp(new ConfigEntry(name, value), AlterConfigOp.OpType.SET);
    }

    static KafkaShareConsumer<byte[], byte[]> shareConsumer(final KafkaFixture kafka, final String group,
        final String mode)
    {
        final Properties props = kafka.common();
        props.put(ConsumerConfig.GROUP_ID_CONFIG, group);
        props.put(ConsumerConfig.SHARE_ACKNOWLEDGEMENT_MODE_CONFIG, mode);
        return new KafkaShareConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }
}
