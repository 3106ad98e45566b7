package io.spool.wire.kafka;

import io.spool.api.stream.TopicConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ShareFetchRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.spool.wire.kafka.KafkaProduceTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random and mutated Kafka frames thrown at the listener while a stock KafkaProducer and KafkaConsumer work
 * beside them: the consumer must see every record the producer had acknowledged, and the listener go on serving.
 */
class KafkaFuzzTest
{
    private static final int RECORDS = 2_000;
    private static final int FUZZ_CONNECTIONS = 300;
    private static final long SEED = Long.getLong("spool.fuzz.seed", 20261201L);

    @TempDir
    Path dir;

    @Test
    void garbageFromSomeConnectionsHarmsNeitherTheListenerNorWellBehavedClients() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir, KafkaListenerConfig.builder().maxRequestBytes(256 * 1024)))
        {
            kafka.engine.createTopic("orders", TopicConfig.of(2));
            kafka.engine.createTopic("fuzz", TopicConfig.of(1));
            final CompletableFuture<Void> producing = CompletableFuture.runAsync(() -> produce(kafka));
            final CompletableFuture<Set<String>> consuming = CompletableFuture.supplyAsync(() -> consume(kafka));

            final Random random = new Random(SEED);
            final List<byte[]> templates = validFrames();
            for (int i = 0; i < FUZZ_CONNECTIONS; i++)
            {
                try (RawKafkaConnection raw = new RawKafkaConnection(kafka))
                {
                    for (int frames = 1 + random.nextInt(4); frames > 0; frames--)
                    {
                        raw.send(random.nextInt(3) == 0 ? randomBytes(random) :
                            mutate(templates.get(random.nextInt(templates.size())), random));
                    }
                }
                catch (final IOException closedByTheListener)
                {
                    // the listener may close a connection before all its garbage is written
                }
            }

            producing.get(120, TimeUnit.SECONDS);
            final Set<String> seen = consuming.get(120, TimeUnit.SECONDS);
            assertThat(seen).as("records the consumer saw (seed %d)", SEED).hasSize(RECORDS);
            assertThat(kafka.engine.streams().describeTopic("orders").partitions().stream()
                .mapToLong(p -> p.endOffset()).sum()).isEqualTo(RECORDS);
        }
    }

    private static void produce(final KafkaFixture kafka)
    {
        try (KafkaProducer<byte[], byte[]> producer = kafka.producer(Map.of()))
        {
            for (int i = 0; i < RECORDS; i++)
            {
                producer.send(new ProducerRecord<>("orders", bytes("k" + i), bytes("r" + i)));
            }
            producer.flush();
        }
    }

    private static Set<String> consume(final KafkaFixture kafka)
    {
        final Set<String> seen = new HashSet<>();
        try (KafkaConsumer<byte[], byte[]> consumer = kafka.consumer(Map.of()))
        {
            final List<TopicPartition> partitions = List.of(new TopicPartition("orders", 0),
                new TopicPartition("orders", 1));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            KafkaFixture.await("every record is consumed", () ->
            {
                for (final ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100)))
                {
                    seen.add(new String(record.value(), StandardCharsets.UTF_8));
                }
                return seen.size() >= RECORDS;
            });
        }
        return seen;
    }

    /** One valid request of each kind the mutations start from. */
    private static List<byte[]> validFrames()
    {
        final ProduceRequestData.TopicProduceDataCollection topics = new ProduceRequestData.TopicProduceDataCollection();
        topics.add(new ProduceRequestData.TopicProduceData().setName("fuzz").setPartitionData(List.of(
            new ProduceRequestData.PartitionProduceData().setIndex(0).setRecords(
                MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(bytes("k"), bytes("fuzzed")))))));
        final ShareFetchRequestData.FetchTopicCollection shareTopics = new ShareFetchRequestData.FetchTopicCollection();
        return List.of(
            RawKafkaConnection.frame(ApiKeys.API_VERSIONS, (short)3, 1,
                new ApiVersionsRequestData().setClientSoftwareName("fuzz").setClientSoftwareVersion("1")),
            RawKafkaConnection.frame(ApiKeys.METADATA, (short)12, 2, new MetadataRequestData()),
            RawKafkaConnection.frame(ApiKeys.PRODUCE, (short)9, 3,
                new ProduceRequestData().setAcks((short)1).setTimeoutMs(1000).setTopicData(topics)),
            RawKafkaConnection.frame(ApiKeys.FETCH, (short)12, 4, new FetchRequestData().setMaxWaitMs(10).setMinBytes(1)
                .setMaxBytes(1 << 16).setTopics(List.of(new FetchRequestData.FetchTopic().setTopic("fuzz")
                    .setPartitions(List.of(new FetchRequestData.FetchPartition().setPartition(0).setFetchOffset(0)
                        .setPartitionMaxBytes(1 << 16)))))),
            RawKafkaConnection.frame(ApiKeys.LIST_OFFSETS, (short)7, 5, new ListOffsetsRequestData().setTopics(List.of(
                new ListOffsetsRequestData.ListOffsetsTopic().setName("fuzz").setPartitions(List.of(
                    new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(0).setTimestamp(-1)))))),
            RawKafkaConnection.frame(ApiKeys.FIND_COORDINATOR, (short)4, 6,
                new FindCoordinatorRequestData().setCoordinatorKeys(List.of("g"))),
            RawKafkaConnection.frame(ApiKeys.JOIN_GROUP, (short)7, 7, new JoinGroupRequestData().setGroupId("g")
                .setSessionTimeoutMs(10_000).setRebalanceTimeoutMs(10).setMemberId("").setProtocolType("consumer")),
            RawKafkaConnection.frame(ApiKeys.OFFSET_COMMIT, (short)8, 8, new OffsetCommitRequestData().setGroupId("g")
                .setGenerationIdOrMemberEpoch(-1).setTopics(List.of(new OffsetCommitRequestData.OffsetCommitRequestTopic()
                    .setName("fuzz").setPartitions(List.of(new OffsetCommitRequestData.OffsetCommitRequestPartition()
                        .setPartitionIndex(0).setCommittedOffset(0)))))),
            RawKafkaConnection.frame(ApiKeys.SHARE_FETCH, (short)1, 9, new ShareFetchRequestData().setGroupId("sg")
                .setMemberId("m").setShareSessionEpoch(0).setMaxWaitMs(10).setTopics(shareTopics)));
    }

    private static byte[] randomBytes(final Random random)
    {
        final byte[] bytes = new byte[random.nextInt(64)];
        random.nextBytes(bytes);
        return bytes;
    }

    /** A valid frame with a few bytes flipped, cut short, or given a wrong size. */
    private static byte[] mutate(final byte[] frame, final Random random)
    {
        final byte[] bytes = frame.clone();
        switch (random.nextInt(3))
        {
            case 0 ->
            {
                for (int flips = 1 + random.nextInt(4); flips > 0; flips--)
                {
                    bytes[4 + random.nextInt(bytes.length - 4)] ^= (byte)(1 << random.nextInt(8));
                }
            }
            case 1 ->
            {
                final byte[] cut = java.util.Arrays.copyOf(bytes, 4 + random.nextInt(bytes.length - 4));
                java.nio.ByteBuffer.wrap(cut).putInt(0, cut.length - 4);
                return cut;
            }
            default -> java.nio.ByteBuffer.wrap(bytes).putInt(0, random.nextInt(1 << 20));
        }
        return bytes;
    }
}
