package io.spool.wire;

import io.spool.api.SpoolException;
import io.spool.api.log.LogConfig;
import io.spool.api.log.OffsetOutOfRangeException;
import io.spool.api.log.RecordTooLargeException;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.KeyPartitioner;
import io.spool.api.stream.PublishListener;
import io.spool.api.stream.PublishResult;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicDescription;
import io.spool.api.stream.TopicExistsException;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownPartitionException;
import io.spool.api.stream.UnknownTopicException;
import io.spool.testing.SlowTest;
import io.spool.wire.client.ProducerConfig;
import io.spool.wire.client.RemoteProducer;
import io.spool.wire.client.RemoteStreamConsumer;
import io.spool.wire.client.SpoolAdmin;
import io.spool.wire.client.SpoolClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@SlowTest
class RoundTripTest
{
    @TempDir
    Path dir;
    private WireFixture fixture;
    private SpoolClient client;

    @BeforeEach
    void start()
    {
        fixture = new WireFixture(dir);
        client = fixture.connect();
    }

    @AfterEach
    void stop()
    {
        fixture.close();
    }

    @Test
    void adminCreatesDescribesListsAndDeletesTopics()
    {
        final SpoolAdmin admin = client.admin();
        final TopicConfig config = TopicConfig.of(3).withLog(LogConfig.builder().segmentBytes(1 << 20)
            .maxRecordBytes(4096).retentionMillis(60_000).build());
        admin.createTopic("orders", config);
        admin.createTopic("audit", WireFixture.topic(1));

        assertThat(admin.listTopics()).containsExactly("audit", "orders");
        final TopicDescription description = admin.describeTopic("orders");
        assertThat(description.name()).isEqualTo("orders");
        assertThat(description.config().partitions()).isEqualTo(3);
        assertThat(description.config().log().maxRecordBytes()).isEqualTo(4096);
        assertThat(description.config().log().retentionMillis()).isEqualTo(60_000);
        assertThat(description.partitions()).extracting(TopicDescription.PartitionDescription::partition)
            .containsExactly(0, 1, 2);
        assertThat(fixture.spool().streams().describeTopic("orders").config()).hasToString(description.config().toString());

        assertThatThrownBy(() -> admin.createTopic("orders", config)).isInstanceOf(TopicExistsException.class)
            .hasMessageContaining("orders");
        admin.deleteTopic("audit");
        assertThat(admin.listTopics()).containsExactly("orders");
        assertThatThrownBy(() -> admin.describeTopic("audit")).isInstanceOf(UnknownTopicException.class);
        assertThatThrownBy(() -> admin.deleteTopic("audit")).isInstanceOf(UnknownTopicException.class);
    }

    @Test
    void adminChangesALiveTopicsRetention()
    {
        final SpoolAdmin admin = client.admin();
        final TopicConfig created = WireFixture.topic(2);
        admin.createTopic("orders", created);

        admin.alterTopicRetention("orders", 3_600_000, 1L << 30);

        assertThat(admin.describeTopic("orders").config()).hasToString(
            created.withRetention(3_600_000, 1L << 30).toString());
        assertThat(fixture.spool().streams().topics().topic("orders").partition(1).config().retentionBytes())
            .isEqualTo(1L << 30);
        assertThatThrownBy(() -> admin.alterTopicRetention("missing", 3_600_000, -1))
            .isInstanceOf(UnknownTopicException.class).hasMessageContaining("missing");
        assertThatThrownBy(() -> admin.alterTopicRetention("orders", -5, -1))
            .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("retentionMillis must be positive");
        assertThat(admin.describeTopic("orders").config().log().retentionMillis()).isEqualTo(3_600_000);
    }

    @Test
    void everyTopicSettingCrossesTheWireBothWays()
    {
        final TopicConfig config = TopicConfig.of(2).withLog(LogConfig.builder().segmentBytes(1 << 21)
            .indexIntervalBytes(512).maxRecordBytes(8192).segmentRollMillis(3_600_000).retentionMillis(86_400_000)
            .retentionBytes(1L << 30).durability(io.spool.api.log.Durability.interval(250)).dedupWindowMillis(90_000)
            .build()).withDedupByContent(true);

        client.admin().createTopic("settings", config);

        assertThat(fixture.spool().streams().describeTopic("settings").config()).hasToString(config.toString());
        assertThat(client.admin().describeTopic("settings").config()).hasToString(config.toString());
    }

    @Test
    void publishedRecordsComeBackByFetchWithKeysHeadersAndOffsets()
    {
        client.admin().createTopic("events", WireFixture.topic(2));
        final RemoteProducer producer = client.newProducer(ProducerConfig.defaults(), ignoringListener());
        final byte[] key = bytes("customer-7");
        final PublishResult first = producer.send("events", key, bytes("one")).join();
        final PublishResult second = producer.send("events", key, bytes("two")).join();

        assertThat(first.partition()).isEqualTo(KeyPartitioner.partitionForKey(key, 2));
        assertThat(second.partition()).isEqualTo(first.partition());
        assertThat(second.offset()).isEqualTo(first.offset() + 1);

        final RemoteStreamConsumer consumer = client.newStreamReader();
        final TopicPartition partition = new TopicPartition("events", first.partition());
        consumer.assign(List.of(partition));
        final List<ConsumerRecord> records = consumer.poll(10, 1 << 20, Duration.ofSeconds(5));

        assertThat(records).extracting(r -> new String(r.value(), StandardCharsets.UTF_8)).containsExactly("one", "two");
        assertThat(records).extracting(ConsumerRecord::offset).containsExactly(first.offset(), second.offset());
        assertThat(records.get(0).key()).isEqualTo(key);
        assertThat(consumer.position(partition)).isEqualTo(second.offset() + 1);
    }

    @Test
    void batchedPublishesAreConfirmedInOrderAndReadBackWhole()
    {
        client.admin().createTopic("metrics", WireFixture.topic(1));
        final int count = 20_000;
        final Map<Long, Long> offsets = new ConcurrentHashMap<>();
        final RemoteProducer producer = client.newProducer(ProducerConfig.builder().batchBytes(16 * 1024)
            .lingerMillis(5).maxUnconfirmed(4096).build(), new PublishListener()
            {
                @Override
                public void onPublished(final long correlation, final String topic, final int partition,
                    final long offset)
                {
                    offsets.put(correlation, offset);
                }

                @Override
                public void onFailed(final long correlation, final String topic, final int partition,
                    final SpoolException error)
                {
                    offsets.put(correlation, -1L);
                }
            });
        for (int i = 0; i < count; i++)
        {
            producer.sendToPartition("metrics", 0, null, null, bytes("value-" + i), i);
            assertThat(producer.unconfirmed()).isLessThanOrEqualTo(4096);
        }
        assertThat(producer.awaitConfirms()).isTrue();
        assertThat(offsets).hasSize(count);
        for (long i = 0; i < count; i++)
        {
            assertThat(offsets.get(i)).isEqualTo(i);
        }

        final RemoteStreamConsumer consumer = client.newStreamReader();
        consumer.assign(List.of(new TopicPartition("metrics", 0)));
        final List<String> values = new ArrayList<>();
        while (values.size() < count)
        {
            final int before = values.size();
            consumer.poll((topic, partition, record) -> values.add(new String(record.valueBytes(),
                StandardCharsets.UTF_8)), 5000, 256 * 1024, Duration.ofSeconds(5));
            assertThat(values.size()).isGreaterThan(before);
        }
        for (int i = 0; i < count; i++)
        {
            assertThat(values.get(i)).isEqualTo("value-" + i);
        }
    }

    @Test
    void fetchAtTheEndWaitsForTheNextRecord() throws Exception
    {
        client.admin().createTopic("waits", WireFixture.topic(1));
        final RemoteStreamConsumer consumer = client.newStreamReader();
        consumer.assign(List.of(new TopicPartition("waits", 0)));
        final CompletableFuture<List<ConsumerRecord>> polled = CompletableFuture.supplyAsync(
            () -> consumer.poll(10, 1 << 20, Duration.ofSeconds(20)));
        final SpoolClient other = fixture.connect();
        final long start = System.nanoTime();
        other.newProducer(ProducerConfig.defaults(), ignoringListener()).send("waits", null, bytes("late")).join();

        final List<ConsumerRecord> records = polled.get(15, TimeUnit.SECONDS);
        assertThat(records).extracting(r -> new String(r.value(), StandardCharsets.UTF_8)).containsExactly("late");
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(15);
        assertThat(consumer.poll(10, 1 << 20, Duration.ZERO)).isEmpty();
    }

    @Test
    void aPollReturnsWhatOnePartitionHasWithoutWaitingForTheIdleOnes()
    {
        client.admin().createTopic("mixed", WireFixture.topic(2));
        final RemoteProducer producer = client.newProducer(ProducerConfig.defaults(), ignoringListener());
        producer.sendToPartition("mixed", 1, null, null, bytes("only here"), 0);
        assertThat(producer.awaitConfirms()).isTrue();
        final RemoteStreamConsumer consumer = client.newStreamReader();
        consumer.assign(List.of(new TopicPartition("mixed", 0), new TopicPartition("mixed", 1)));

        final long start = System.nanoTime();
        final List<ConsumerRecord> records = consumer.poll(10, 1 << 20, Duration.ofSeconds(30));

        assertThat(records).extracting(ConsumerRecord::partition).containsExactly(1);
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(10);
        producer.sendToPartition("mixed", 0, null, null, bytes("now here"), 1);
        assertThat(consumer.poll(10, 1 << 20, Duration.ofSeconds(30))).extracting(ConsumerRecord::partition)
            .containsExactly(0);
    }

    @Test
    void errorsComeBackAsTheEngineExceptions()
    {
        client.admin().createTopic("small", TopicConfig.of(1).withLog(LogConfig.builder().segmentBytes(1 << 20)
            .maxRecordBytes(256).build()));
        final RemoteProducer producer = client.newProducer(ProducerConfig.defaults(), ignoringListener());
        producer.send("small", null, bytes("fits")).join();

        assertThatThrownBy(() -> producer.send("small", null, new byte[1000]).join())
            .isInstanceOf(CompletionException.class).cause().isInstanceOf(RecordTooLargeException.class)
            .hasMessage(new RecordTooLargeException("topics/small/0", 1040, 256).getMessage());
        assertThatThrownBy(() -> producer.send("missing", null, bytes("x"))).isInstanceOf(UnknownTopicException.class);
        assertThatThrownBy(() -> producer.sendToPartition("small", 3, null, null, bytes("x"), 0))
            .isInstanceOf(UnknownPartitionException.class);

        final RemoteStreamConsumer consumer = client.newStreamReader();
        final TopicPartition partition = new TopicPartition("small", 0);
        consumer.assign(List.of(partition));
        consumer.seek(partition, 42);
        assertThatThrownBy(() -> consumer.poll(10, 1024, Duration.ZERO))
            .isInstanceOfSatisfying(OffsetOutOfRangeException.class, ex ->
            {
                assertThat(ex.requestedOffset()).isEqualTo(42);
                assertThat(ex.earliestOffset()).isZero();
                assertThat(ex.endOffset()).isEqualTo(1);
            });
        consumer.seekToBeginning(List.of(partition));
        assertThat(consumer.poll(10, 1024, Duration.ZERO)).hasSize(1);
        assertThat(client.isConnected()).isTrue();

        client.close();
        assertThat(client.isConnected()).isFalse();
        assertThatThrownBy(() -> producer.send("small", null, bytes("late"))).isInstanceOf(ConnectionLostException.class);
        assertThatThrownBy(() -> client.admin().listTopics()).isInstanceOf(ConnectionLostException.class);
    }

    @Test
    void aTopicDeletedAndCreatedAgainIsFoundAgainOnTheSameConnection()
    {
        client.admin().createTopic("again", WireFixture.topic(1));
        final RemoteProducer producer = client.newProducer(ProducerConfig.defaults(), ignoringListener());
        assertThat(producer.send("again", null, bytes("first life")).join().offset()).isZero();
        producer.send("again", null, bytes("second")).join();
        client.admin().deleteTopic("again");
        client.admin().createTopic("again", WireFixture.topic(1));

        assertThat(producer.send("again", null, bytes("second life")).join().offset()).isZero();
        final RemoteStreamConsumer consumer = client.newStreamReader();
        consumer.assign(List.of(new TopicPartition("again", 0)));
        assertThat(consumer.poll(10, 1024, Duration.ofSeconds(5))).extracting(r -> new String(r.value(),
            StandardCharsets.UTF_8)).containsExactly("second life");
    }

    @Test
    void aTimestampSetInThePublishFrameIsTheRecordsTimestamp() throws Exception
    {
        client.admin().createTopic("timed", WireFixture.topic(1));
        try (RawConnection raw = new RawConnection(fixture.server().port()).hello(""))
        {
            final io.netty.buffer.ByteBuf frame = io.netty.buffer.Unpooled.buffer();
            final int count = PublishDescriptor.beginRequest(frame, 5, bytes("timed"), 0);
            PublishDescriptor.appendRecord(frame, 1_234_567L, 0, null, null, bytes("then"));
            PublishDescriptor.finishRequest(frame, count, 1);
            raw.send(frame);
            final java.nio.ByteBuffer response = raw.readFrame();
            assertThat(response.getShort(FrameDescriptor.OP_CODE_OFFSET)).isEqualTo((short)OpCode.PUBLISH);
            assertThat(response.getInt(FrameDescriptor.HEADER_LENGTH)).isEqualTo(1);
            assertThat(response.getLong(FrameDescriptor.HEADER_LENGTH + 4)).isZero();
        }
        final RemoteStreamConsumer consumer = client.newStreamReader();
        consumer.assign(List.of(new TopicPartition("timed", 0)));
        final List<ConsumerRecord> records = consumer.poll(1, 1024, Duration.ofSeconds(5));
        assertThat(records).extracting(ConsumerRecord::timestamp).containsExactly(1_234_567L);
    }

    @Test
    void aRepeatedDedupIdIsStoredOnceAndConfirmedWithTheFirstOffset()
    {
        client.admin().createTopic("payments", WireFixture.topic(1));
        final Map<Long, Long> offsets = new ConcurrentHashMap<>();
        final RemoteProducer producer = client.newProducer(ProducerConfig.defaults(), new PublishListener()
        {
            @Override
            public void onPublished(final long correlation, final String topic, final int partition, final long offset)
            {
                offsets.put(correlation, offset);
            }

            @Override
            public void onFailed(final long correlation, final String topic, final int partition,
                final SpoolException error)
            {
                offsets.put(correlation, -1L);
            }
        });
        producer.sendOnce("payments", null, "pay-1", bytes("100 EUR"), 1);
        producer.sendOnce("payments", null, "pay-2", bytes("5 EUR"), 2);
        producer.sendOnce("payments", null, "pay-1", bytes("100 EUR"), 3);
        assertThat(producer.awaitConfirms()).isTrue();

        assertThat(offsets).containsEntry(1L, 0L).containsEntry(2L, 1L).containsEntry(3L, 0L);
        assertThat(client.admin().describeTopic("payments").partitions().get(0).endOffset()).isEqualTo(2);
    }

    @Test
    void aFetchAnswersFromOneSegmentAndTheNextFetchGoesOn()
    {
        client.admin().createTopic("rolling", TopicConfig.of(1).withLog(LogConfig.builder().segmentBytes(64 * 1024).maxRecordBytes(4096)
            .build()));
        final RemoteProducer producer = client.newProducer(ProducerConfig.defaults(), ignoringListener());
        final AtomicLong last = new AtomicLong();
        for (int i = 0; i < 2000; i++)
        {
            producer.sendToPartition("rolling", 0, null, null, new byte[100], i);
        }
        assertThat(producer.awaitConfirms()).isTrue();
        assertThat(fixture.spool().streams().describeTopic("rolling").partitions().get(0).segmentCount())
            .isGreaterThan(2);

        final RemoteStreamConsumer consumer = client.newStreamReader();
        consumer.assign(List.of(new TopicPartition("rolling", 0)));
        int seen = 0;
        while (seen < 2000)
        {
            final int got = consumer.poll((topic, partition, record) ->
            {
                assertThat(record.offset()).isEqualTo(last.getAndIncrement());
                assertThat(record.valueLength()).isEqualTo(100);
            }, 10_000, 1 << 20, Duration.ofSeconds(1));
            assertThat(got).isPositive();
            seen += got;
        }
        assertThat(last.get()).isEqualTo(2000);
    }

    @Test
    void retentionRemovesSegmentsAnIdleConnectionReadAndItsNextFetchSaysWhereTheLogStarts() throws Exception
    {
        client.admin().createTopic("short", TopicConfig.of(1).withLog(LogConfig.builder().segmentBytes(64 * 1024)
            .maxRecordBytes(4096).retentionBytes(128 * 1024).build()));
        final RemoteProducer producer = client.newProducer(ProducerConfig.defaults(), ignoringListener());
        for (int i = 0; i < 3000; i++)
        {
            producer.sendToPartition("short", 0, null, null, new byte[100], i);
        }
        assertThat(producer.awaitConfirms()).isTrue();
        final RemoteStreamConsumer consumer = client.newStreamReader();
        final TopicPartition partition = new TopicPartition("short", 0);
        consumer.assign(List.of(partition));
        assertThat(consumer.poll(10, 1024, Duration.ofSeconds(1))).isNotEmpty();
        final Path firstSegment = dir.resolve("topics/short/0/00000000000000000000.log");
        assertThat(firstSegment).exists();

        fixture.spool().runMaintenance();

        assertThat(WireFixture.await(() -> !java.nio.file.Files.exists(firstSegment), Duration.ofSeconds(5)))
            .as("no idle reader of the connection holds the segment").isTrue();
        final long earliest = client.admin().describeTopic("short").partitions().get(0).startOffset();
        assertThat(earliest).isPositive();
        consumer.seek(partition, 0);
        assertThatThrownBy(() -> consumer.poll(10, 1024, Duration.ZERO))
            .isInstanceOfSatisfying(OffsetOutOfRangeException.class,
                ex -> assertThat(ex.earliestOffset()).isEqualTo(earliest));
    }

    static PublishListener ignoringListener()
    {
        return new PublishListener()
        {
            @Override
            public void onPublished(final long correlation, final String topic, final int partition, final long offset)
            {
            }

            @Override
            public void onFailed(final long correlation, final String topic, final int partition,
                final SpoolException error)
            {
            }
        };
    }

    static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
