package io.spool.wire.kafka;

import io.spool.api.log.LogConfig;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static io.spool.wire.kafka.KafkaProduceTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** KafkaConsumers with assign, seek and offsetsForTimes read what Spool's own producers publish. */
class KafkaConsumeTest
{
    private static final TopicPartition P0 = new TopicPartition("events", 0);

    @TempDir
    Path dir;

    @Test
    void aRecordPublishedWithSpoolsApiIsFetchedByteIdenticalByAKafkaConsumer()
    {
        try (KafkaFixture kafka = new KafkaFixture(dir))
        {
            kafka.engine.createTopic("events", TopicConfig.of(1));
            final Map<String, byte[]> headers = new LinkedHashMap<>();
            headers.put("source", bytes("spool"));
            headers.put("nothing", null);
            kafka.engine.newProducer().send(new ProducerRecord("events", 0, 1_650_000_000_123L, bytes("k"), headers,
                bytes("v"))).join();
            kafka.engine.newProducer().send(new ProducerRecord("events", 0, 1_650_000_000_124L, null, Map.of(), null))
                .join();
            try (KafkaConsumer<byte[], byte[]> consumer = kafka.consumer(Map.of()))
            {
                consumer.assign(List.of(P0));
                consumer.seekToBeginning(List.of(P0));
                final List<ConsumerRecord<byte[], byte[]>> read = poll(consumer, 2);
                final ConsumerRecord<byte[], byte[]> first = read.get(0);
                assertThat(first.offset()).isZero();
                assertThat(first.key()).isEqualTo(bytes("k"));
                assertThat(first.value()).isEqualTo(bytes("v"));
                assertThat(first.timestamp()).isEqualTo(1_650_000_000_123L);
                assertThat(first.timestampType()).isEqualTo(TimestampType.CREATE_TIME);
                assertThat(first.headers().toArray()).hasSize(2);
                assertThat(first.headers().lastHeader("source").value()).isEqualTo(bytes("spool"));
                assertThat(first.headers().lastHeader("nothing").value()).isNull();
                assertThat(read.get(1).key()).isNull();
                assertThat(read.get(1).value()).isNull();
            }
        }
    }

    @Test
    void seekSeekToEndAndOffsetsForTimesUseSpoolsOffsetsAndTimeIndex()
    {
        try (KafkaFixture kafka = new KafkaFixture(dir))
        {
            kafka.engine.createTopic("events", TopicConfig.of(1));
            for (int i = 0; i < 50; i++)
            {
                kafka.engine.newProducer().send(ProducerRecord.toPartition("events", 0, null, bytes("r" + i))
                    .withTimestamp(1_000_000L + i * 10L)).join();
            }
            try (KafkaConsumer<byte[], byte[]> consumer = kafka.consumer(Map.of()))
            {
                consumer.assign(List.of(P0));
                final Map<TopicPartition, OffsetAndTimestamp> found =
                    consumer.offsetsForTimes(Map.of(P0, 1_000_205L));
                assertThat(found.get(P0).offset()).isEqualTo(21);
                assertThat(found.get(P0).timestamp()).isEqualTo(1_000_210L);
                assertThat(consumer.offsetsForTimes(Map.of(P0, 9_000_000L)).get(P0)).isNull();
                assertThat(consumer.beginningOffsets(List.of(P0)).get(P0)).isZero();
                assertThat(consumer.endOffsets(List.of(P0)).get(P0)).isEqualTo(50);

                consumer.seek(P0, 40);
                assertThat(poll(consumer, 10).get(0).value()).isEqualTo(bytes("r40"));
                consumer.seekToEnd(List.of(P0));
                assertThat(consumer.position(P0)).isEqualTo(50);
                consumer.seek(P0, 7);
                assertThat(poll(consumer, 43).get(0).offset()).isEqualTo(7);
            }
        }
    }

    @Test
    void aLongPollWakesWhenARecordArrivesInsteadOfWaitingOutTheMaximumWait() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir))
        {
            kafka.engine.createTopic("events", TopicConfig.of(1));
            // The server may hold the fetch 40 s; the client gives up after 20 s. Only a wake-up on commit can
            // deliver the record within the client's poll.
            final KafkaConsumer<byte[], byte[]> consumer = kafka.consumer(Map.of(
                ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 40_000, ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, 60_000));
            try
            {
                consumer.assign(List.of(P0));
                consumer.seekToBeginning(List.of(P0));
                assertThat(consumer.position(P0)).isZero();
                final CompletableFuture<ConsumerRecords<byte[], byte[]>> polled =
                    CompletableFuture.supplyAsync(() -> consumer.poll(Duration.ofSeconds(20)));
                kafka.engine.newProducer().send(ProducerRecord.toPartition("events", 0, null, bytes("late"))).join();
                assertThat(polled.get().count()).isEqualTo(1);
            }
            finally
            {
                // The consumer's next fetch is parked for 40 s; closing does not wait for it.
                consumer.close(CloseOptions.timeout(Duration.ZERO));
            }
        }
    }

    @Test
    void aTopicKeepingAppendTimesStampsKafkaRecordsWithTheirAppendTime() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir))
        {
            kafka.engine.createTopic("events", new TopicConfig(1, LogConfig.builder().logAppendTime(true).build()));
            try (KafkaProducer<byte[], byte[]> producer = kafka.producer(Map.of()))
            {
                final long before = System.currentTimeMillis();
                final var metadata = producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(
                    "events", 0, 42L, null, bytes("x"))).get();
                assertThat(metadata.timestamp()).isGreaterThanOrEqualTo(before);
            }
            try (KafkaConsumer<byte[], byte[]> consumer = kafka.consumer(Map.of()))
            {
                consumer.assign(List.of(P0));
                consumer.seekToBeginning(List.of(P0));
                final ConsumerRecord<byte[], byte[]> record = poll(consumer, 1).get(0);
                assertThat(record.timestampType()).isEqualTo(TimestampType.LOG_APPEND_TIME);
                assertThat(record.timestamp()).isNotEqualTo(42L);
            }
        }
    }

    @Test
    void anOffsetPastTheEndIsOutOfRangeForAConsumerWithoutAReset()
    {
        try (KafkaFixture kafka = new KafkaFixture(dir))
        {
            kafka.engine.createTopic("events", TopicConfig.of(1));
            kafka.engine.newProducer().send(ProducerRecord.toPartition("events", 0, null, bytes("only"))).join();
            try (KafkaConsumer<byte[], byte[]> consumer = kafka.consumer(Map.of(
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none")))
            {
                consumer.assign(List.of(P0));
                consumer.seek(P0, 100);
                assertThatThrownBy(() ->
                {
                    for (int i = 0; i < 100; i++)
                    {
                        consumer.poll(Duration.ofMillis(200));
                    }
                }).isInstanceOf(OffsetOutOfRangeException.class);
            }
        }
    }

    static List<ConsumerRecord<byte[], byte[]>> poll(final KafkaConsumer<byte[], byte[]> consumer, final int count)
    {
        final List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
        KafkaFixture.await(count + " records are fetched", () ->
        {
            consumer.poll(Duration.ofMillis(100)).forEach(read::add);
            return read.size() >= count;
        });
        return read;
    }
}
