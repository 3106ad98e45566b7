package io.spool.wire.kafka;

import io.spool.api.stream.TopicConfig;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ShareAcknowledgeRequestData;
import org.apache.kafka.common.message.ShareAcknowledgeResponseData;
import org.apache.kafka.common.message.ShareFetchRequestData;
import org.apache.kafka.common.message.ShareFetchResponseData;
import org.apache.kafka.common.message.ShareGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ShareGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Share requests no stock client sends in the right order: unknown members, sessions that were never opened or are
 * used at the wrong epoch, acknowledgements of records the session never acquired. Each gets the error KIP-932
 * names, and the session goes on serving.
 */
class KafkaShareRefusalTest
{
    private static final String GROUP = "billing";
    private static final String TOPIC = "orders";
    private static final byte ACCEPT = 1;

    @TempDir
    Path dir;

    @Test
    void unknownMembersSessionsAndEpochsAreRefusedByName() throws Exception
    {
        try (KafkaFixture kafka = new KafkaFixture(dir); RawKafkaConnection raw = new RawKafkaConnection(kafka))
        {
            kafka.engine.createTopic(TOPIC, TopicConfig.of(1));
            final String member = Uuid.randomUuid().toString();

            final ShareFetchResponseData stranger = fetch(raw, member, 0, Uuid.ZERO_UUID);
            assertThat(stranger.errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());
            final ShareAcknowledgeResponseData strangerAck = acknowledge(raw, member, 1, Uuid.ZERO_UUID, 0);
            assertThat(strangerAck.errorCode()).isEqualTo(Errors.UNKNOWN_MEMBER_ID.code());

            final ShareGroupHeartbeatResponseData joined = raw.call(ApiKeys.SHARE_GROUP_HEARTBEAT,
                ApiKeys.SHARE_GROUP_HEARTBEAT.latestVersion(), new ShareGroupHeartbeatRequestData().setGroupId(GROUP)
                    .setMemberId(member).setMemberEpoch(0).setSubscribedTopicNames(List.of(TOPIC)));
            assertThat(joined.errorCode()).isEqualTo(Errors.NONE.code());
            final Uuid topicId = joined.assignment().topicPartitions().get(0).topicId();

            final ShareFetchResponseData neverOpened = fetch(raw, member, 4, topicId);
            assertThat(neverOpened.errorCode()).isEqualTo(Errors.SHARE_SESSION_NOT_FOUND.code());
            assertThat(neverOpened.errorMessage()).contains("open one with epoch 0");

            assertThat(fetch(raw, member, 0, topicId).errorCode()).isEqualTo(Errors.NONE.code());
            final ShareFetchResponseData skipped = fetch(raw, member, 3, topicId);
            assertThat(skipped.errorCode()).isEqualTo(Errors.INVALID_SHARE_SESSION_EPOCH.code());
            assertThat(skipped.errorMessage()).contains("epoch 3 where 1 was expected");

            final ShareAcknowledgeResponseData notAcquired = acknowledge(raw, member, 1, topicId, 0);
            assertThat(notAcquired.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(notAcquired.responses().iterator().next().partitions().get(0).errorCode())
                .isEqualTo(Errors.INVALID_RECORD_STATE.code());

            kafka.engine.newProducer().send(TOPIC, null, "v".getBytes()).join();
            final ShareFetchResponseData delivered = fetch(raw, member, 2, topicId);
            assertThat(delivered.errorCode()).isEqualTo(Errors.NONE.code());
            assertThat(delivered.responses().iterator().next().partitions().get(0).acquiredRecords()).hasSize(1);
            final ShareAcknowledgeResponseData accepted = acknowledge(raw, member, 3, topicId, 0);
            assertThat(accepted.responses().iterator().next().partitions().get(0).errorCode()).isEqualTo(Errors.NONE.code());
        }
    }

    private static ShareFetchResponseData fetch(final RawKafkaConnection raw, final String member, final int epoch,
        final Uuid topicId) throws IOException
    {
        return raw.call(ApiKeys.SHARE_FETCH, ApiKeys.SHARE_FETCH.latestVersion(), new ShareFetchRequestData()
            .setGroupId(GROUP).setMemberId(member).setShareSessionEpoch(epoch).setMaxWaitMs(epoch == 2 ? 5_000 : 0)
            .setMinBytes(1).setMaxBytes(1 << 20).setMaxRecords(10).setBatchSize(10)
            .setTopics(new ShareFetchRequestData.FetchTopicCollection(List.of(new ShareFetchRequestData.FetchTopic()
                .setTopicId(topicId).setPartitions(new ShareFetchRequestData.FetchPartitionCollection(List.of(
                    new ShareFetchRequestData.FetchPartition().setPartitionIndex(0)).iterator()))).iterator())));
    }

    private static ShareAcknowledgeResponseData acknowledge(final RawKafkaConnection raw, final String member,
        final int epoch, final Uuid topicId, final long offset) throws IOException
    {
        return raw.call(ApiKeys.SHARE_ACKNOWLEDGE, ApiKeys.SHARE_ACKNOWLEDGE.latestVersion(),
            new ShareAcknowledgeRequestData().setGroupId(GROUP).setMemberId(member).setShareSessionEpoch(epoch)
                .setTopics(new ShareAcknowledgeRequestData.AcknowledgeTopicCollection(List.of(
                    new ShareAcknowledgeRequestData.AcknowledgeTopic().setTopicId(topicId).setPartitions(
                        new ShareAcknowledgeRequestData.AcknowledgePartitionCollection(List.of(
                            new ShareAcknowledgeRequestData.AcknowledgePartition().setPartitionIndex(0)
                                .setAcknowledgementBatches(List.of(new ShareAcknowledgeRequestData.AcknowledgementBatch()
                                    .setFirstOffset(offset).setLastOffset(offset)
                                    .setAcknowledgeTypes(List.of(ACCEPT))))).iterator()))).iterator())));
    }
}
