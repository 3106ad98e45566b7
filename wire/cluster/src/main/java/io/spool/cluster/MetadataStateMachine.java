package io.spool.cluster;

import io.spool.api.SpoolException;
import io.spool.cluster.ClusterEntryDescriptor.CreateTopic;
import io.spool.cluster.ClusterEntryDescriptor.Reply;
import io.spool.stream.StreamEngine;
import io.spool.stream.Topic;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import static io.spool.cluster.ClusterEntryDescriptor.STATUS_STORED;

/**
 * The state machine of the metadata group (every node): applies CREATE_TOPIC entries by creating the topic in this
 * node's engine and joining the groups of the partitions placed on this node, and ANNOUNCE_KAFKA entries by noting
 * where a node's Kafka listener is ({@link KafkaBrokers}).
 * <p>
 * The topics it knows are those its entries created, counted as they are applied, so a second create of a name is
 * refused the same way on every node; on a restart the entries are applied again, and a topic the engine already
 * holds from the run before is taken as created (every topic of a cluster node comes through here).
 * Ratis applies entries one at a time, and queries read the topics beside it.
 */
final class MetadataStateMachine extends BaseStateMachine
{
    private final StreamEngine streams;
    private final Consumer<CreateTopic> joinGroups;
    private final KafkaBrokers kafkaBrokers;
    /** Written by the apply thread only; read by queries too. */
    private final Map<String, CreateTopic> topics = new ConcurrentHashMap<>();

    /**
     * @param joinGroups called with each applied topic, to join its partitions' groups; must not block.
     */
    MetadataStateMachine(final StreamEngine streams, final Consumer<CreateTopic> joinGroups,
        final KafkaBrokers kafkaBrokers)
    {
        this.streams = streams;
        this.joinGroups = joinGroups;
        this.kafkaBrokers = kafkaBrokers;
    }

    @Override
    public CompletableFuture<Message> applyTransaction(final TransactionContext transaction)
    {
        final LogEntryProto entry = transaction.getLogEntry();
        try
        {
            final ByteString data = entry.getStateMachineLogEntry().getLogData();
            if (ClusterEntryDescriptor.type(data) == KafkaEntryDescriptor.TYPE_ANNOUNCE_KAFKA)
            {
                kafkaBrokers.announced(KafkaEntryDescriptor.decodeAnnounceKafka(data));
                // the entry's index is the node's block of producer ids, which no other entry's index can repeat
                return CompletableFuture.completedFuture(ClusterEntryDescriptor.reply(
                    new Reply(STATUS_STORED, entry.getIndex(), 0, "")));
            }
            final CreateTopic create = ClusterEntryDescriptor.decodeCreateTopic(data);
            return CompletableFuture.completedFuture(ClusterEntryDescriptor.reply(apply(create)));
        }
        finally
        {
            updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        }
    }

    private Reply apply(final CreateTopic create)
    {
        if (topics.containsKey(create.name()))
        {
            return Reply.refused("topic " + create.name() + " exists");
        }
        final Topic existing = streams.topics().topicOrNull(create.name());
        if (existing == null)
        {
            try
            {
                streams.createTopic(create.name(), create.config());
            }
            catch (final SpoolException refused)
            {
                // the engine judges a name and settings the same way on every node, so every node refuses it
                return Reply.refused(refused.getMessage());
            }
        }
        topics.put(create.name(), create);
        joinGroups.accept(create);
        return new Reply(STATUS_STORED, 0, create.config().partitions(), "");
    }

    /**
     * Answers a query naming a topic (UTF-8) with the CREATE_TOPIC entry that created it, or an empty message when
     * none did: how a client learns a topic's partitions and replication factor, and so its groups.
     */
    @Override
    public CompletableFuture<Message> query(final Message request)
    {
        final CreateTopic topic = topics.get(request.getContent().toStringUtf8());
        return CompletableFuture.completedFuture(topic == null ? Message.EMPTY :
            ClusterEntryDescriptor.createTopic(topic.name(), topic.replicationFactor(), topic.config()));
    }
}
