package io.spool.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.spool.api.SpoolException;
import io.spool.cluster.ClusterEntryDescriptor.CreateTopic;
import io.spool.cluster.ClusterEntryDescriptor.Reply;
import io.spool.stream.StreamEngine;
import io.spool.stream.Topic;
import io.spool.wire.Fields;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;
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
 * holds from the run before is taken as created (every topic of a cluster node comes through here). A snapshot
 * holds the CREATE_TOPIC entries of every topic, and loading one applies them again the same way, and the Kafka
 * listeners announced so far (as their ANNOUNCE_KAFKA entries), so that the Raft log can be trimmed up to it.
 * Ratis applies entries one at a time, and queries read the topics beside it.
 */
final class MetadataStateMachine extends SnapshottingStateMachine
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
        super(RaftSnapshotDescriptor.KIND_METADATA);
        this.streams = streams;
        this.joinGroups = joinGroups;
        this.kafkaBrokers = kafkaBrokers;
    }

    /**
     * Payload: the topic count (int32), then each topic's CREATE_TOPIC entry as bytes, by name; then the announced
     * Kafka listeners ({@link KafkaBrokers#writeTo}).
     */
    @Override
    ByteBuf snapshotPayload(final TermIndex applied)
    {
        final ByteBuf payload = Unpooled.buffer(256);
        final Map<String, CreateTopic> byName = new TreeMap<>(topics);
        payload.writeIntLE(byName.size());
        for (final CreateTopic topic : byName.values())
        {
            Fields.writeBytes(payload, ClusterEntryDescriptor.createTopic(topic.name(), topic.replicationFactor(),
                topic.config()).getContent().toByteArray());
        }
        kafkaBrokers.writeTo(payload);
        return payload;
    }

    @Override
    void loadLatestSnapshot() throws IOException
    {
        final SnapshotFiles.Loaded snapshot = snapshots.loadLatest();
        if (snapshot == null)
        {
            return;
        }
        final ByteBuf in = snapshot.payload();
        topics.clear();
        try
        {
            for (int i = 0, count = in.readIntLE(); i < count; i++)
            {
                final Reply created = apply(ClusterEntryDescriptor.decodeCreateTopic(
                    ByteString.copyFrom(Fields.readBytes(in))));
                if (created.status() != STATUS_STORED)
                {
                    throw new DamagedSnapshotException(snapshot.file(), "its topic could not be created here: " +
                        created.problem());
                }
            }
            kafkaBrokers.readFrom(in);
        }
        catch (final IndexOutOfBoundsException | IllegalArgumentException ex)
        {
            throw new DamagedSnapshotException(snapshot.file(), "its topics cannot be read (" + ex.getMessage() +
                ")", ex);
        }
        setLastAppliedTermIndex(snapshot.termIndex());
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
