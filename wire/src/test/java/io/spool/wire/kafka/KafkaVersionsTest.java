package io.spool.wire.kafka;

import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static io.spool.wire.kafka.KafkaProduceTest.bytes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every version the listener advertises of the APIs clients use most is answered: an answer that cannot be written
 * at an old version (a field that version lacks) would leave the client waiting.
 */
class KafkaVersionsTest
{
    @TempDir
    Path dir;

    @Test
    void everyAdvertisedVersionIsAnswered() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir))
        {
            kafka.engine.createTopic("t", TopicConfig.of(1));
            kafka.engine.newProducer().send(ProducerRecord.toPartition("t", 0, bytes("k"), bytes("v"))).join();
            final org.apache.kafka.common.Uuid id = new TopicIds(kafka.engine.streams()).idOf("t");
            final Map<ApiKeys, Function<Short, ApiMessage>> requests = new java.util.LinkedHashMap<>();
            requests.put(ApiKeys.API_VERSIONS, v -> new ApiVersionsRequestData().setClientSoftwareName("t")
                .setClientSoftwareVersion("1"));
            requests.put(ApiKeys.METADATA, v -> new MetadataRequestData().setTopics(List.of(
                new MetadataRequestData.MetadataRequestTopic().setName("t").setTopicId(v >= 10 ? id :
                    org.apache.kafka.common.Uuid.ZERO_UUID))));
            requests.put(ApiKeys.PRODUCE, v ->
            {
                final ProduceRequestData.TopicProduceDataCollection topics = new ProduceRequestData.TopicProduceDataCollection();
                topics.add(new ProduceRequestData.TopicProduceData().setName(v >= 13 ? "" : "t").setTopicId(v >= 13 ? id :
                    org.apache.kafka.common.Uuid.ZERO_UUID).setPartitionData(List.of(new ProduceRequestData.PartitionProduceData()
                    .setIndex(0).setRecords(MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(bytes("x")))))));
                return new ProduceRequestData().setAcks((short)1).setTimeoutMs(1000).setTopicData(topics);
            });
            requests.put(ApiKeys.FETCH, v -> new FetchRequestData().setMaxWaitMs(0).setMinBytes(0).setMaxBytes(1 << 20)
                .setTopics(List.of(new FetchRequestData.FetchTopic().setTopic(v >= 13 ? null : "t").setTopicId(
                    v >= 13 ? id : org.apache.kafka.common.Uuid.ZERO_UUID).setPartitions(List.of(
                    new FetchRequestData.FetchPartition().setPartition(0).setFetchOffset(0).setPartitionMaxBytes(1 << 20))))));
            requests.put(ApiKeys.LIST_OFFSETS, v -> new ListOffsetsRequestData().setTopics(List.of(
                new ListOffsetsRequestData.ListOffsetsTopic().setName("t").setPartitions(List.of(
                    new ListOffsetsRequestData.ListOffsetsPartition().setPartitionIndex(0).setTimestamp(-2))))));
            requests.put(ApiKeys.FIND_COORDINATOR, v -> v >= 4 ?
                new FindCoordinatorRequestData().setCoordinatorKeys(List.of("g")) :
                new FindCoordinatorRequestData().setKey("g"));
            requests.put(ApiKeys.JOIN_GROUP, v -> new JoinGroupRequestData().setGroupId("g").setSessionTimeoutMs(10_000)
                .setRebalanceTimeoutMs(10_000).setMemberId("").setProtocolType("consumer"));
            requests.put(ApiKeys.HEARTBEAT, v -> new HeartbeatRequestData().setGroupId("g").setMemberId("m"));
            requests.put(ApiKeys.OFFSET_COMMIT, v -> new OffsetCommitRequestData().setGroupId("g2")
                .setGenerationIdOrMemberEpoch(-1).setTopics(List.of(new OffsetCommitRequestData.OffsetCommitRequestTopic()
                    .setName(v >= 10 ? "" : "t").setTopicId(v >= 10 ? id : org.apache.kafka.common.Uuid.ZERO_UUID)
                    .setPartitions(List.of(new OffsetCommitRequestData.OffsetCommitRequestPartition().setPartitionIndex(0)
                        .setCommittedOffset(1))))));
            requests.put(ApiKeys.OFFSET_FETCH, v -> v >= 8 ? new OffsetFetchRequestData().setGroups(List.of(
                new OffsetFetchRequestData.OffsetFetchRequestGroup().setGroupId("g2").setTopics(null))) :
                new OffsetFetchRequestData().setGroupId("g2").setTopics(null));
            requests.put(ApiKeys.LIST_GROUPS, v -> new ListGroupsRequestData());
            requests.put(ApiKeys.DESCRIBE_GROUPS, v -> new DescribeGroupsRequestData().setGroups(List.of("g", "g2")));
            requests.put(ApiKeys.CREATE_TOPICS, v ->
            {
                final CreateTopicsRequestData.CreatableTopicCollection topics = new CreateTopicsRequestData.CreatableTopicCollection();
                topics.add(new CreateTopicsRequestData.CreatableTopic().setName("made-" + v).setNumPartitions(1)
                    .setReplicationFactor((short)1));
                return new CreateTopicsRequestData().setTopics(topics).setTimeoutMs(1000);
            });
            requests.put(ApiKeys.DELETE_TOPICS, v -> v >= 6 ? new DeleteTopicsRequestData().setTopics(List.of(
                new DeleteTopicsRequestData.DeleteTopicState().setName("made-" + (v - 1)))) :
                new DeleteTopicsRequestData().setTopicNames(List.of("made-" + v)));
            requests.put(ApiKeys.DESCRIBE_CONFIGS, v -> new DescribeConfigsRequestData().setResources(List.of(
                new DescribeConfigsRequestData.DescribeConfigsResource().setResourceType((byte)2).setResourceName("t"))));
            requests.put(ApiKeys.INIT_PRODUCER_ID, v -> new InitProducerIdRequestData().setTransactionTimeoutMs(1000));
            try (RawKafkaConnection raw = new RawKafkaConnection(kafka))
            {
                for (final Map.Entry<ApiKeys, Function<Short, ApiMessage>> api : requests.entrySet())
                {
                    for (short version = api.getKey().oldestVersion(); version <= api.getKey().latestVersion(); version++)
                    {
                        final ApiMessage request = api.getValue().apply(version);
                        try
                        {
                            RawKafkaConnection.frame(api.getKey(), version, 0, request);
                        }
                        catch (final UnsupportedVersionException | NullPointerException notThisShape)
                        {
                            continue;
                        }
                        final ApiMessage answer = raw.call(api.getKey(), version, request);
                        assertThat(answer).as("%s v%d", api.getKey(), version).isNotNull();
                    }
                }
            }
        }
    }
}
