package io.spool.wire.kafka;

import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.TopicConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.spool.wire.kafka.KafkaProduceTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The listener and its engine restart while a default (idempotent) KafkaProducer produces and a group member
 * consumes: the producer's retries are recognised after the restart, so every record is stored once, and the
 * member, rejoining from its committed offsets, sees every record.
 */
class KafkaRestartTest
{
    private static final int RECORDS = 3_000;

    @TempDir
    Path dir;

    @Test
    void producersAndGroupMembersCarryOnAcrossARestartAndNothingIsLostOrDoubled() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir))
        {
            kafka.engine.createTopic("flow", TopicConfig.of(2));
            final AtomicInteger acknowledged = new AtomicInteger();
            final ConcurrentLinkedQueue<Exception> failures = new ConcurrentLinkedQueue<>();
            try (PollingConsumer member = new PollingConsumer(kafka, PollingConsumer.groupSettings("flow-readers",
                "cooperative-sticky"), "flow"))
            {
                final CompletableFuture<Void> producing = CompletableFuture.runAsync(() ->
                {
                    try (KafkaProducer<byte[], byte[]> producer = kafka.producer(Map.of()))
                    {
                        for (int i = 0; i < RECORDS; i++)
                        {
                            producer.send(new ProducerRecord<>("flow", bytes("k" + i), bytes("r" + i)),
                                (metadata, failure) ->
                                {
                                    if (failure != null)
                                    {
                                        failures.add(failure);
                                    }
                                    else
                                    {
                                        acknowledged.incrementAndGet();
                                    }
                                });
                            if (i == RECORDS / 3)
                            {
                                producer.flush();
                            }
                        }
                        producer.flush();
                    }
                });
                KafkaFixture.await("a third is acknowledged", () -> acknowledged.get() > RECORDS / 3);
                kafka.restart();
                producing.get(120, TimeUnit.SECONDS);
                assertThat(failures).isEmpty();
                assertThat(acknowledged).hasValue(RECORDS);
                KafkaFixture.await("the member saw every record", () -> member.values().size() == RECORDS);
            }
            assertThat(kafka.engine.streams().describeTopic("flow").partitions().stream()
                .mapToLong(partition -> partition.endOffset()).sum()).as("records stored").isEqualTo(RECORDS);
            final List<ConsumerRecord> stored = KafkaProduceTest.readAll(kafka.engine, "flow", 2, RECORDS);
            assertThat(stored).hasSize(RECORDS);
            assertThat(stored.stream().map(record -> new String(record.value(), StandardCharsets.UTF_8)).distinct())
                .hasSize(RECORDS);
        }
    }
}
