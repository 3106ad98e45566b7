package io.spool.wire.kafka;

import io.spool.api.stream.TopicConfig;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;

import static io.spool.wire.kafka.KafkaProduceTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests no stock client sends: each gets the Kafka error a client understands, or a closed connection; the
 * listener keeps serving, and records acknowledged before stay.
 */
class KafkaBadInputTest
{
    private static final short PRODUCE_VERSION = 9;
    private static final short FETCH_VERSION = 12;

    @TempDir
    Path dir;

    @Test
    void apiVersionsAtAnUnknownVersionIsAnsweredAtVersionZeroWithTheListenersVersions() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir); RawKafkaConnection raw = new RawKafkaConnection(kafka))
        {
            raw.send(RawKafkaConnection.frame(ApiKeys.API_VERSIONS, (short)3, 7, new ApiVersionsRequestData()
                .setClientSoftwareName("raw").setClientSoftwareVersion("1")));
            final ApiVersionsResponseData current = raw.read(ApiKeys.API_VERSIONS, (short)3, 7);
            assertThat(current.errorCode()).isEqualTo(Errors.NONE.code());
            final byte[] future = RawKafkaConnection.frame(ApiKeys.API_VERSIONS, (short)3, 8,
                new ApiVersionsRequestData().setClientSoftwareName("raw").setClientSoftwareVersion("1"));
            ByteBuffer.wrap(future).putShort(6, (short)99);
            raw.send(future);
            final ApiVersionsResponseData answer = raw.read(ApiKeys.API_VERSIONS, (short)0, 8);
            assertThat(answer.errorCode()).isEqualTo(Errors.UNSUPPORTED_VERSION.code());
            assertThat(answer.apiKeys().find(ApiKeys.PRODUCE.id).maxVersion()).isEqualTo(ApiKeys.PRODUCE.latestVersion());
            assertThat(answer.apiKeys().find(ApiKeys.END_TXN.id)).as("transactions are not advertised").isNull();
        }
    }

    @Test
    void requestsThatCannotBeUnderstoodCloseTheirConnectionAndNoOther() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir, KafkaListenerConfig.builder().maxRequestBytes(64 * 1024));
            RawKafkaConnection bystander = new RawKafkaConnection(kafka))
        {
            final byte[] metadata = RawKafkaConnection.frame(ApiKeys.METADATA, (short)12, 1, new MetadataRequestData());
            final byte[] unknownKey = metadata.clone();
            ByteBuffer.wrap(unknownKey).putShort(4, (short)999);
            final byte[] unknownVersion = metadata.clone();
            ByteBuffer.wrap(unknownVersion).putShort(6, (short)99);
            final byte[] truncated = java.util.Arrays.copyOf(metadata, metadata.length - 1);
            ByteBuffer.wrap(truncated).putInt(0, truncated.length - 4);
            final byte[] tooShort = {0, 0, 0, 3, 0, 3, 0};
            final byte[] oversized = ByteBuffer.allocate(8).putInt(1 << 30).putInt(0).array();
            final byte[] transaction = RawKafkaConnection.frame(ApiKeys.END_TXN, (short)4, 1,
                new org.apache.kafka.common.message.EndTxnRequestData().setTransactionalId("t"));
            for (final byte[] bad : List.of(unknownKey, unknownVersion, truncated, tooShort, oversized, transaction))
            {
                try (RawKafkaConnection raw = new RawKafkaConnection(kafka))
                {
                    raw.send(bad);
                    assertThat(raw.closedByServer()).isTrue();
                }
            }
            assertThat(bystander.<org.apache.kafka.common.message.MetadataResponseData>call(ApiKeys.METADATA,
                (short)12, new MetadataRequestData()).brokers()).hasSize(1);
        }
    }

    @Test
    void produceErrorsAreKafkasCodesAndFetchPastTheEndIsOutOfRange() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir, KafkaListenerConfig.builder().autoCreateTopics(false));
            RawKafkaConnection raw = new RawKafkaConnection(kafka))
        {
            kafka.engine.createTopic("t", TopicConfig.of(1));
            final MemoryRecords good = MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(bytes("v")));
            final MemoryRecords corrupt = MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(bytes("v")));
            corrupt.buffer().put(corrupt.sizeInBytes() - 1, (byte)0x7F);

            assertThat(produce(raw, "t", 0, corrupt).errorCode()).isEqualTo(Errors.CORRUPT_MESSAGE.code());
            assertThat(produce(raw, "nope", 0, good).errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            assertThat(produce(raw, "t", 5, good).errorCode()).isEqualTo(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
            assertThat(produce(raw, "t", 0, good).errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(kafka.engine.streams().describeTopic("t").partitions().get(0).endOffset()).isEqualTo(1);

            final FetchResponseData fetched = raw.call(ApiKeys.FETCH, FETCH_VERSION, new FetchRequestData()
                .setMaxWaitMs(0).setMinBytes(1).setMaxBytes(1 << 20).setTopics(List.of(new FetchRequestData.FetchTopic()
                    .setTopic("t").setPartitions(List.of(new FetchRequestData.FetchPartition().setPartition(0)
                        .setFetchOffset(5).setPartitionMaxBytes(1 << 20))))));
            final FetchResponseData.PartitionData partition = fetched.responses().get(0).partitions().get(0);
            assertThat(partition.errorCode()).isEqualTo(Errors.OFFSET_OUT_OF_RANGE.code());
            assertThat(partition.highWatermark()).isEqualTo(1);
        }
    }

    @Test
    void aRetriedIdempotentBatchIsStoredOnceAndAGapIsOutOfOrder() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir); RawKafkaConnection raw = new RawKafkaConnection(kafka))
        {
            kafka.engine.createTopic("t", TopicConfig.of(1));
            final long producerId = kafka.engine.streams().producerSequences().newProducerId();
            final ProduceResponseData.PartitionProduceResponse first = produce(raw, "t", 0,
                idempotent(producerId, 0, "a", "b"));
            final ProduceResponseData.PartitionProduceResponse second = produce(raw, "t", 0,
                idempotent(producerId, 2, "c"));
            final ProduceResponseData.PartitionProduceResponse retried = produce(raw, "t", 0,
                idempotent(producerId, 2, "c"));
            final ProduceResponseData.PartitionProduceResponse gap = produce(raw, "t", 0,
                idempotent(producerId, 9, "z"));

            assertThat(first.baseOffset()).isZero();
            assertThat(second.baseOffset()).isEqualTo(2);
            assertThat(retried.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(retried.baseOffset()).isEqualTo(2);
            assertThat(gap.errorCode()).isEqualTo(Errors.OUT_OF_ORDER_SEQUENCE_NUMBER.code());
            assertThat(kafka.engine.streams().describeTopic("t").partitions().get(0).endOffset()).isEqualTo(3);
        }
    }

    private static MemoryRecords idempotent(final long producerId, final int sequence, final String... values)
    {
        final SimpleRecord[] records = new SimpleRecord[values.length];
        for (int i = 0; i < values.length; i++)
        {
            records[i] = new SimpleRecord(bytes(values[i]));
        }
        return MemoryRecords.withRecords(RecordBatch.CURRENT_MAGIC_VALUE, 0L, Compression.NONE,
            TimestampType.CREATE_TIME, producerId, (short)0, sequence, 0, false, records);
    }

    static ProduceResponseData.PartitionProduceResponse produce(final RawKafkaConnection raw, final String topic,
        final int partition, final MemoryRecords records) throws Exception
    {
        final ProduceRequestData.TopicProduceDataCollection topics = new ProduceRequestData.TopicProduceDataCollection();
        topics.add(new ProduceRequestData.TopicProduceData().setName(topic).setPartitionData(List.of(
            new ProduceRequestData.PartitionProduceData().setIndex(partition).setRecords(records))));
        final ProduceResponseData response = raw.call(ApiKeys.PRODUCE, PRODUCE_VERSION,
            new ProduceRequestData().setAcks((short)-1).setTimeoutMs(30_000).setTopicData(topics));
        return response.responses().iterator().next().partitionResponses().get(0);
    }
}
