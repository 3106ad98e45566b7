package io.spool.wire.kafka;

import io.spool.api.stream.TopicPartition;
import io.spool.stream.StreamEngine;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitResponseData;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchResponseData;
import org.apache.kafka.common.protocol.Errors;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * OffsetCommit and OffsetFetch over Spool's durable committed offsets, so a group's position is the same through
 * Kafka's clients, Spool's API and its CLI. A commit is checked against the group it names: a classic group's
 * generation and member, a consumer-protocol group's member epoch. Kafka's per-offset metadata string is not kept
 * (it reads back empty). Thread-safe.
 */
final class OffsetApis
{
    private final StreamEngine streams;
    private final TopicIds topicIds;
    private final ClassicGroups classicGroups;
    private final ConsumerGroups consumerGroups;
    private final PartitionLeaders leaders;

    OffsetApis(final StreamEngine streams, final TopicIds topicIds, final ClassicGroups classicGroups,
        final ConsumerGroups consumerGroups, final PartitionLeaders leaders)
    {
        this.leaders = leaders;
        this.streams = streams;
        this.topicIds = topicIds;
        this.classicGroups = classicGroups;
        this.consumerGroups = consumerGroups;
    }

    void commit(final KafkaRequest request)
    {
        final OffsetCommitRequestData body = request.body();
        final OffsetCommitResponseData response = new OffsetCommitResponseData();
        final Map<TopicPartition, Long> offsets = new HashMap<>();
        final List<OffsetCommitResponseData.OffsetCommitResponsePartition> accepted = new ArrayList<>();
        final boolean byId = request.version() >= 10;
        // read before the generation is checked, so that a node that led again since commits with its old epoch
        final long coordinatorEpoch = leaders.isCluster() ? leaders.cluster().coordinatorEpoch() : 0;
        final Errors groupError = consumerGroups.isConsumerGroup(body.groupId()) ?
            consumerGroups.checkCommit(body.groupId(), body.memberId(), body.generationIdOrMemberEpoch()) :
            classicGroups.checkCommit(body.groupId(), body.generationIdOrMemberEpoch(), body.memberId());
        for (final OffsetCommitRequestData.OffsetCommitRequestTopic topic : body.topics())
        {
            final String name = byId ? topicIds.nameOf(topic.topicId()) : topic.name();
            final OffsetCommitResponseData.OffsetCommitResponseTopic topicResponse =
                new OffsetCommitResponseData.OffsetCommitResponseTopic()
                    .setName(byId ? "" : topic.name()).setTopicId(byId ? topic.topicId() : Uuid.ZERO_UUID);
            response.topics().add(topicResponse);
            final int partitions = name == null ? 0 : streams.topics().partitionCount(name);
            for (final OffsetCommitRequestData.OffsetCommitRequestPartition partition : topic.partitions())
            {
                final OffsetCommitResponseData.OffsetCommitResponsePartition out =
                    new OffsetCommitResponseData.OffsetCommitResponsePartition().setPartitionIndex(partition.partitionIndex());
                topicResponse.partitions().add(out);
                if (groupError != Errors.NONE)
                {
                    out.setErrorCode(groupError.code());
                }
                else if (partition.partitionIndex() < 0 || partition.partitionIndex() >= partitions)
                {
                    out.setErrorCode((byId && name == null ? Errors.UNKNOWN_TOPIC_ID :
                        Errors.UNKNOWN_TOPIC_OR_PARTITION).code());
                }
                else if (partition.committedOffset() < 0)
                {
                    out.setErrorCode(Errors.INVALID_COMMIT_OFFSET_SIZE.code());
                }
                else
                {
                    offsets.put(new TopicPartition(name, partition.partitionIndex()), partition.committedOffset());
                    accepted.add(out);
                }
            }
        }
        if (!offsets.isEmpty())
        {
            final Errors error = consumerGroups.isConsumerGroup(body.groupId()) ?
                consumerGroups.commit(body.groupId(), body.memberId(), offsets) :
                commitStandalone(body.groupId(), offsets, coordinatorEpoch);
            accepted.forEach(out -> out.setErrorCode(error.code()));
        }
        request.respond(response);
    }

    /**
     * Commits without a member check of the engine; a cluster node commits through each partition's group, as the
     * coordinator of {@code coordinatorEpoch}, and a partition that has a commit of a later coordinator stops it.
     */
    private Errors commitStandalone(final String groupId, final Map<TopicPartition, Long> offsets,
        final long coordinatorEpoch)
    {
        try
        {
            if (!leaders.isCluster())
            {
                streams.groups().commitStandalone(groupId, offsets);
                return Errors.NONE;
            }
            if (coordinatorEpoch < 0)
            {
                return Errors.NOT_COORDINATOR;
            }
            for (final Map.Entry<TopicPartition, Long> offset : offsets.entrySet())
            {
                if (!leaders.cluster().commitOffset(groupId, offset.getKey(), offset.getValue(), coordinatorEpoch))
                {
                    return Errors.NOT_COORDINATOR;
                }
            }
            return Errors.NONE;
        }
        catch (final RuntimeException ex)
        {
            return KafkaErrors.of(ex);
        }
    }

    void fetch(final KafkaRequest request)
    {
        final OffsetFetchRequestData body = request.body();
        final OffsetFetchResponseData response = new OffsetFetchResponseData();
        if (request.version() < 8)
        {
            final OffsetFetchResponseData.OffsetFetchResponseGroup group = fetchGroup(body.groupId(),
                body.topics() == null ? null : body.topics().stream().map(topic ->
                    new OffsetFetchRequestData.OffsetFetchRequestTopics().setName(topic.name())
                        .setPartitionIndexes(topic.partitionIndexes())).toList(), false);
            for (final OffsetFetchResponseData.OffsetFetchResponseTopics topic : group.topics())
            {
                final OffsetFetchResponseData.OffsetFetchResponseTopic out =
                    new OffsetFetchResponseData.OffsetFetchResponseTopic().setName(topic.name());
                topic.partitions().forEach(partition -> out.partitions().add(
                    new OffsetFetchResponseData.OffsetFetchResponsePartition()
                        .setPartitionIndex(partition.partitionIndex()).setCommittedOffset(partition.committedOffset())
                        .setCommittedLeaderEpoch(partition.committedLeaderEpoch()).setMetadata("")
                        .setErrorCode(partition.errorCode())));
                response.topics().add(out);
            }
            response.setErrorCode(group.errorCode());
        }
        else
        {
            for (final OffsetFetchRequestData.OffsetFetchRequestGroup group : body.groups())
            {
                response.groups().add(fetchGroup(group.groupId(), group.topics(), request.version() >= 10));
            }
        }
        request.respond(response);
    }

    private OffsetFetchResponseData.OffsetFetchResponseGroup fetchGroup(final String groupId,
        final List<OffsetFetchRequestData.OffsetFetchRequestTopics> topics, final boolean byId)
    {
        final OffsetFetchResponseData.OffsetFetchResponseGroup out =
            new OffsetFetchResponseData.OffsetFetchResponseGroup().setGroupId(groupId);
        final Map<String, List<Integer>> wanted = new TreeMap<>();
        final Map<String, Uuid> ids = new HashMap<>();
        if (topics == null)
        {
            (leaders.isCluster() ? committedOnTheCluster(groupId) : streams.groups().committedOffsets(groupId))
                .keySet().forEach(partition -> wanted.computeIfAbsent(partition.topic(), t -> new ArrayList<>())
                    .add(partition.partition()));
        }
        else
        {
            for (final OffsetFetchRequestData.OffsetFetchRequestTopics topic : topics)
            {
                final String name = byId ? topicIds.nameOf(topic.topicId()) : topic.name();
                if (name == null)
                {
                    out.topics().add(new OffsetFetchResponseData.OffsetFetchResponseTopics().setName("")
                        .setTopicId(topic.topicId()).setPartitions(topic.partitionIndexes().stream().map(p ->
                            new OffsetFetchResponseData.OffsetFetchResponsePartitions().setPartitionIndex(p)
                                .setCommittedOffset(-1).setErrorCode(Errors.UNKNOWN_TOPIC_ID.code())).toList()));
                    continue;
                }
                ids.put(name, topic.topicId());
                wanted.computeIfAbsent(name, t -> new ArrayList<>()).addAll(topic.partitionIndexes());
            }
        }
        wanted.forEach((topic, partitions) ->
        {
            final OffsetFetchResponseData.OffsetFetchResponseTopics topicOut =
                new OffsetFetchResponseData.OffsetFetchResponseTopics()
                    .setName(byId ? "" : topic).setTopicId(byId ? ids.getOrDefault(topic, topicIds.idOf(topic)) :
                        Uuid.ZERO_UUID);
            for (final int partition : partitions)
            {
                final TopicPartition where = new TopicPartition(topic, partition);
                final long committed = leaders.isCluster() ? leaders.cluster().committedOffset(groupId, where) :
                    streams.groups().committed(groupId, where);
                if (committed < 0 && topics == null)
                {
                    continue;
                }
                topicOut.partitions().add(new OffsetFetchResponseData.OffsetFetchResponsePartitions()
                    .setPartitionIndex(partition).setCommittedOffset(committed < 0 ? -1 : committed)
                    .setCommittedLeaderEpoch(-1).setMetadata(""));
            }
            if (topics != null || !topicOut.partitions().isEmpty())
            {
                out.topics().add(topicOut);
            }
        });
        return out;
    }

    /**
     * The group's committed offsets on a cluster, by partition in order: the cluster keeps them with each
     * partition, so every partition's leader is asked.
     */
    Map<TopicPartition, Long> committedOnTheCluster(final String groupId)
    {
        final Map<TopicPartition, Long> committed = new LinkedHashMap<>();
        for (final String topic : new TreeSet<>(streams.listTopics()))
        {
            for (int partition = 0; partition < streams.topics().partitionCount(topic); partition++)
            {
                final TopicPartition where = new TopicPartition(topic, partition);
                final long offset = leaders.cluster().committedOffset(groupId, where);
                if (offset >= 0)
                {
                    committed.put(where, offset);
                }
            }
        }
        return committed;
    }
}
