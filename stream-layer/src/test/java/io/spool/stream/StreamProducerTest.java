package io.spool.stream;

import io.spool.api.SpoolException;
import io.spool.api.log.HeadersCodec;
import io.spool.api.log.RecordTooLargeException;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.IllegalClientStateException;
import io.spool.api.InvalidRequestException;
import io.spool.api.stream.KeyPartitioner;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.PublishListener;
import io.spool.api.stream.PublishResult;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownPartitionException;
import io.spool.log.RecordBatch;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

import static io.spool.stream.EngineFixture.awaitCondition;
import static io.spool.stream.EngineFixture.bytes;
import static io.spool.stream.EngineFixture.text;
import static io.spool.stream.EngineFixture.topic;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class StreamProducerTest
{
    @TempDir
    Path dir;

    private StreamEngine engine;
    private final ConcurrentLinkedQueue<String> confirms = new ConcurrentLinkedQueue<>();
    private final PublishListener recording = new PublishListener()
    {
        @Override
        public void onPublished(final long correlation, final String topic, final int partition, final long offset)
        {
            confirms.add(correlation + ":" + topic + "-" + partition + "@" + offset);
        }

        @Override
        public void onFailed(final long correlation, final String topic, final int partition,
            final SpoolException error)
        {
            confirms.add(correlation + ":failed:" + error.getClass().getSimpleName());
        }
    };

    @BeforeEach
    void open()
    {
        engine = new EngineFixture(dir).open();
        engine.createTopic("orders", topic(4));
    }

    @AfterEach
    void close()
    {
        engine.close();
    }

    @Test
    void sameKeyGoesToTheSamePartitionKafkaWouldPick()
    {
        final StreamProducer producer = engine.newProducer();
        for (final String key : List.of("alice", "bob", "carol", "dave", "erin"))
        {
            final int expected = KeyPartitioner.partitionForKey(bytes(key), 4);
            final PublishResult first = producer.send("orders", bytes(key), bytes("1")).join();
            final PublishResult second = producer.send("orders", bytes(key), bytes("2")).join();
            assertThat(first.partition()).isEqualTo(expected);
            assertThat(second.partition()).isEqualTo(expected);
            assertThat(second.offset()).isEqualTo(first.offset() + 1);
        }
    }

    @Test
    void nullKeysSpreadOverEveryPartitionInTurn()
    {
        final StreamProducer producer = engine.newProducer();
        final List<Integer> partitions = new ArrayList<>();
        for (int i = 0; i < 8; i++)
        {
            partitions.add(producer.send("orders", null, bytes("v" + i)).join().partition());
        }
        assertThat(partitions).containsExactly(0, 1, 2, 3, 0, 1, 2, 3);
    }

    @Test
    void explicitPartitionIsHonouredAndCheckedAgainstTheTopic()
    {
        final StreamProducer producer = engine.newProducer();
        final PublishResult result = producer.send(ProducerRecord.toPartition("orders", 3, bytes("k"), bytes("v")))
            .join();
        assertThat(result).isEqualTo(new PublishResult("orders", 3, 0));
        assertThatThrownBy(() -> producer.send(ProducerRecord.toPartition("orders", 4, null, bytes("v"))))
            .isInstanceOf(UnknownPartitionException.class);
    }

    @Test
    void sendBatchReturnsEachRecordsPlaceInOrder()
    {
        final StreamProducer producer = engine.newProducer();
        final List<ProducerRecord> records = new ArrayList<>();
        for (int i = 0; i < 10; i++)
        {
            records.add(ProducerRecord.toPartition("orders", i % 2, null, bytes("v" + i)));
        }
        final List<PublishResult> results = producer.sendBatch(records).join();

        assertThat(results).hasSize(10);
        for (int i = 0; i < 10; i++)
        {
            assertThat(results.get(i)).isEqualTo(new PublishResult("orders", i % 2, i / 2));
        }
        assertThat(producer.sendBatch(List.of()).join()).isEmpty();
    }

    @Test
    void zeroCopyPublishesConfirmPartitionAndOffsetThroughTheListener()
    {
        final StreamProducer producer = engine.newProducer(recording);
        final UnsafeBuffer key = new UnsafeBuffer(bytes("xxkeyxx"));
        final byte[] encodedHeaders = HeadersCodec.encode(Map.of("h", bytes("1")));
        final UnsafeBuffer headers = new UnsafeBuffer(encodedHeaders);
        final UnsafeBuffer value = new UnsafeBuffer(bytes("payload"));

        final int byKey = producer.publish("orders", key, 2, 3, headers, 0, encodedHeaders.length, value, 0, 7, 11);
        final int explicit = producer.publishToPartition("orders", 1, key, 0, -1, headers, 0, 0, value, 0, 7, 12);
        final int tried = producer.tryPublish("orders", key, 0, -1, headers, 0, 0, value, 0, 7, 13);

        assertThat(byKey).isEqualTo(KeyPartitioner.partitionForKey(bytes("key"), 4));
        assertThat(explicit).isEqualTo(1);
        assertThat(tried).isBetween(0, 3);
        awaitCondition("three confirms", () -> confirms.size() == 3);
        assertThat(confirms).contains("11:orders-" + byKey + "@0", "12:orders-1@" + (byKey == 1 ? 1 : 0));
    }

    @Test
    void publishBatchConfirmsWithConsecutiveCorrelations()
    {
        final StreamProducer producer = engine.newProducer(recording);
        final RecordBatch batch = new RecordBatch();
        batch.add(null, null, bytes("a")).add(null, null, bytes("b")).add(bytes("k"), null, bytes("c"));

        producer.publishBatch("orders", 2, batch, 100);

        awaitCondition("three confirms", () -> confirms.size() == 3);
        assertThat(confirms).containsExactly("100:orders-2@0", "101:orders-2@1", "102:orders-2@2");
    }

    @Test
    void producerWithoutListenerRefusesZeroCopyPublishes()
    {
        final StreamProducer producer = engine.newProducer();
        final UnsafeBuffer value = new UnsafeBuffer(bytes("v"));
        assertThatThrownBy(() -> producer.publish("orders", value, 0, -1, value, 0, 0, value, 0, 1, 0))
            .isInstanceOf(IllegalClientStateException.class).hasMessageContaining("without a PublishListener");
    }

    @Test
    void headersAndNullsArriveAsSent()
    {
        final StreamProducer producer = engine.newProducer();
        final Map<String, byte[]> headers = new LinkedHashMap<>();
        headers.put("trace", bytes("abc"));
        headers.put("empty", new byte[0]);
        producer.send(new ProducerRecord("orders", 0, null, headers, null)).join();

        try (StreamConsumer consumer = engine.newConsumer(ConsumerConfig.standalone()))
        {
            consumer.assign(List.of(new TopicPartition("orders", 0)));
            final ConsumerRecord record = consumer.poll(10, 1 << 20, EngineFixture.LONG_WAIT).get(0);
            assertThat(record.key()).isNull();
            assertThat(record.value()).isNull();
            assertThat(record.headers()).containsOnlyKeys("trace", "empty");
            assertThat(text(record.headers().get("trace"))).isEqualTo("abc");
        }
    }

    @Test
    void givenTimestampsAreKeptAndFoundByTime()
    {
        final StreamProducer producer = engine.newProducer();
        producer.send(ProducerRecord.toPartition("orders", 0, null, bytes("old")).withTimestamp(1_000)).join();
        producer.sendBatch(List.of(
            ProducerRecord.toPartition("orders", 0, null, bytes("older")).withTimestamp(2_000),
            ProducerRecord.toPartition("orders", 0, null, bytes("now")))).join();

        try (StreamConsumer consumer = engine.newConsumer(ConsumerConfig.standalone()))
        {
            final TopicPartition partition = new TopicPartition("orders", 0);
            consumer.assign(List.of(partition));
            final List<ConsumerRecord> records = consumer.poll(10, 1 << 20, EngineFixture.NO_WAIT);
            assertThat(records).extracting(ConsumerRecord::timestamp).startsWith(1_000L, 2_000L);
            assertThat(records.get(2).timestamp()).isGreaterThan(2_000L);
            consumer.seekToTimestamp(partition, 1_500);
            assertThat(consumer.position(partition)).isEqualTo(1);
        }
        assertThatThrownBy(() -> ProducerRecord.of("orders", null, null).withTimestamp(-2))
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("was -2");
        assertThatThrownBy(() -> ProducerRecord.toPartition("orders", -3, null, null))
            .isInstanceOf(InvalidRequestException.class).hasMessageContaining("was -3");
    }

    @Test
    void aRangePastItsBufferIsRefusedAtEveryEntryAndLaterPublishesConfirm()
    {
        assertTimeoutPreemptively(Duration.ofSeconds(60), () ->
        {
            final StreamProducer producer = engine.newProducer(recording);
            final UnsafeBuffer small = new UnsafeBuffer(new byte[10]);
            final UnsafeBuffer key = new UnsafeBuffer(new byte[4]);

            assertThatThrownBy(() -> producer.publish("orders", key, 0, 4, small, 0, 0, small, 0, 500, 1))
                .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("value (500 bytes");
            assertThatThrownBy(() -> producer.publish("orders", key, 100, 4, small, 0, 0, small, 0, 1, 2))
                .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("key (4 bytes at offset 100");
            assertThatThrownBy(() -> producer.publishToPartition("orders", 1, key, 100, 4, small, 0, 0, small, 0, 1, 3))
                .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("key (4 bytes at offset 100");
            assertThatThrownBy(() -> producer.tryPublish("orders", null, 0, -1, small, 9, 5, small, 0, 1, 4))
                .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("headers (5 bytes");
            assertThatThrownBy(() -> new RecordBatch().add(-1, key, 0, 4, small, 0, 0, small, 6, 5))
                .isInstanceOf(IndexOutOfBoundsException.class).hasMessageContaining("value (5 bytes at offset 6");
            assertThat(confirms).isEmpty();

            final RecordBatch batch = new RecordBatch().add(bytes("k"), null, bytes("batched"));
            producer.publishBatch("orders", 2, batch, 5);
            assertThat(producer.send("orders", bytes("k"), bytes("after")).get(30, TimeUnit.SECONDS).offset())
                .isNotNegative();
            awaitCondition("the batch confirms", () -> confirms.size() == 1);
            assertThat(confirms).containsExactly("5:orders-2@0");
            engine.close();
        });
    }

    @Test
    void aBatchWithOneRecordTooLargeStoresNoneOfItsRecords()
    {
        final StreamProducer producer = engine.newProducer();
        final byte[] tooLarge = new byte[EngineFixture.SMALL_SEGMENTS.maxRecordBytes()];

        assertThatThrownBy(() -> producer.sendBatch(List.of(
            ProducerRecord.toPartition("orders", 0, null, bytes("fits")),
            ProducerRecord.toPartition("orders", 1, null, bytes("fits too")),
            ProducerRecord.toPartition("orders", 2, null, tooLarge))))
            .isInstanceOf(RecordTooLargeException.class);
        assertThat(engine.describeTopic("orders").partitions()).allSatisfy(p -> assertThat(p.endOffset()).isZero());
        assertThat(producer.sendBatch(List.of(ProducerRecord.toPartition("orders", 2, null, bytes("fits")))).join())
            .extracting(PublishResult::offset).containsExactly(0L);
    }
}
