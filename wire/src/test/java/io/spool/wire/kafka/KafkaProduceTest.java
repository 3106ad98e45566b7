package io.spool.wire.kafka;

import io.spool.Spool;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import io.spool.stream.ConsumerConfig;
import io.spool.stream.StreamConsumer;
import io.spool.testing.SlowTest;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/** Stock KafkaProducers publish through the listener; Spool's own consumers read the records back unchanged. */
@SlowTest
class KafkaProduceTest
{
    @TempDir
    Path dir;

    @ParameterizedTest(name = "acks={0} compression={1}")
    @CsvSource({"all,none", "1,gzip", "1,snappy", "all,lz4", "all,zstd", "0,none"})
    void recordsProducedThroughKafkaReadBackByteIdenticalThroughSpool(final String acks, final String compression)
        throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir))
        {
            kafka.engine.createTopic("orders", TopicConfig.of(2));
            final List<ProducerRecord<byte[], byte[]>> sent = new ArrayList<>();
            try (KafkaProducer<byte[], byte[]> producer = kafka.producer(Map.of(ProducerConfig.ACKS_CONFIG, acks,
                ProducerConfig.COMPRESSION_TYPE_CONFIG, compression)))
            {
                final List<Future<RecordMetadata>> acknowledged = new ArrayList<>();
                for (int i = 0; i < 200; i++)
                {
                    final ProducerRecord<byte[], byte[]> record = new ProducerRecord<>("orders", i % 2,
                        1_700_000_000_000L + i, i % 5 == 0 ? null : bytes("key-" + i), bytes("value-" + i),
                        List.of(new RecordHeader("trace", bytes("t" + i)), new RecordHeader("empty", null)));
                    sent.add(record);
                    acknowledged.add(producer.send(record));
                }
                producer.flush();
                for (final Future<RecordMetadata> done : acknowledged)
                {
                    done.get();
                }
            }
            final List<ConsumerRecord> read = readAll(kafka.engine, "orders", 2, 200);
            assertThat(read).hasSize(200);
            for (final ProducerRecord<byte[], byte[]> record : sent)
            {
                assertThat(read).anySatisfy(stored ->
                {
                    assertThat(stored.partition()).isEqualTo(record.partition());
                    assertThat(stored.timestamp()).isEqualTo(record.timestamp());
                    assertThat(stored.key()).isEqualTo(record.key());
                    assertThat(stored.value()).isEqualTo(record.value());
                    assertThat(stored.headers()).containsOnlyKeys("trace", "empty");
                    assertThat(stored.headers().get("trace")).isEqualTo(record.headers().lastHeader("trace").value());
                    assertThat(stored.headers().get("empty")).isNull();
                });
            }
        }
    }

    static List<ConsumerRecord> readAll(final Spool engine, final String topic, final int partitions,
        final int expected)
    {
        final List<ConsumerRecord> read = new ArrayList<>();
        try (StreamConsumer consumer = engine.newConsumer(ConsumerConfig.standalone()))
        {
            final List<TopicPartition> all = new ArrayList<>();
            for (int p = 0; p < partitions; p++)
            {
                all.add(new TopicPartition(topic, p));
            }
            consumer.assign(all);
            consumer.seekToBeginning(all);
            KafkaFixture.await(expected + " records are stored", () ->
            {
                read.addAll(consumer.poll(1000, 1 << 20, Duration.ofMillis(50)));
                return read.size() >= expected;
            });
        }
        return read;
    }

    static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
