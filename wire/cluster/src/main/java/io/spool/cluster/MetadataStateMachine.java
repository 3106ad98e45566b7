package io.spool.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.spool.api.log.LogConfig;
import io.spool.api.stream.InvalidTopicException;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.UnknownTopicException;
import io.spool.cluster.ClusterEntryDescriptor.AlterTopicRetention;
import io.spool.cluster.ClusterEntryDescriptor.CreateTopic;
import io.spool.cluster.ClusterEntryDescriptor.Reply;
import io.spool.stream.StreamEngine;
import io.spool.stream.Topic;
import io.spool.wire.Fields;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

import static io.spool.cluster.ClusterEntryDescriptor.STATUS_STORED;

/**
 * The state machine of the metadata group (every node): applies CREATE_TOPIC entries by creating the topic in this
 * node's engine and joining the groups of the partitions placed on this node, DELETE_TOPIC entries by leaving those
 * groups (their storage removed) and deleting the topic from the engine, and ANNOUNCE_KAFKA entries by noting where
 * a node's Kafka listener is ({@link KafkaBrokers}).
 * <p>
 * The topics it knows are those its entries created and did not delete, counted as they are applied, so a second
 * create of a name, or a delete of an unknown one, is refused the same way on every node; each has the index of the
 * entry that created it as its generation, which its groups' ids hold, so that a name created again gets groups of
 * its own. On a restart the entries are applied again, and a topic the engine already holds from the run before is
 * taken as created (every topic of a cluster node comes through here) unless this node holds groups of it of
 * another generation: then the engine's copy is of a deleted topic, and is replaced. A snapshot holds the topics
 * (as their CREATE_TOPIC entries, with their generations), and loading one applies them again the same way, and the
 * Kafka listeners announced so far (as their ANNOUNCE_KAFKA entries), so that the Raft log can be trimmed up to it.
 * A topic the engine holds that the snapshot does not, and that was created before it, was deleted while this node
 * was away (or closing): loading the snapshot removes it and its groups.
 * <p>
 * Ratis applies entries one at a time, and queries read the topics beside it. Groups are joined and left on a
 * thread of their own ({@link GroupMemberships}); a delete waits until the node has left the topic's groups before
 * it deletes the topic's files, which the groups write.
 * <p>
 * A topic whose files this node cannot create, or whose deletion it cannot write (its disk is full), stops the
 * node ({@link FailedWrites#stopNode}), and the apply throws, so that Ratis counts the entry as not applied and
 * applies nothing after it. A failed future would not do: Ratis would count the entry as applied, answer the
 * client with the failure and go on with the next entry. A failed write of the group's Raft log or of a snapshot
 * stops the node the same way. Restarted with room, the node applies the entry again, from its log or the
 * leader's; what the engine wrote of a topic it could not finish creating is in no topic list, and goes when the
 * engine opens.
 */
final class MetadataStateMachine extends SnapshottingStateMachine
{
    private static final Logger LOGGER = LoggerFactory.getLogger(MetadataStateMachine.class);

    private final int nodeId;
    private final StreamEngine streams;
    private final GroupMemberships memberships;
    private final KafkaBrokers kafkaBrokers;
    private final FailedWrites failedWrites;
    /** Where the engine keeps the topics' files, and the Raft storage: named when a write to either fails. */
    private final Path logDirectory;
    private final Path raftDirectory;
    /** Written by the apply thread only; read by queries too. */
    private final Map<String, CreateTopic> topics = new ConcurrentHashMap<>();
    /**
     * The topics whose copy in the engine is being removed or replaced after this node leaves groups of theirs; the
     * apply thread waits for it before it touches the name in the engine again. Used by the apply thread only.
     */
    private final Map<String, CompletableFuture<Void>> replacing = new HashMap<>();

    MetadataStateMachine(final int nodeId, final StreamEngine streams, final GroupMemberships memberships,
        final KafkaBrokers kafkaBrokers, final FailedWrites failedWrites, final Path logDirectory,
        final Path raftDirectory)
    {
        super(RaftSnapshotDescriptor.KIND_METADATA);
        this.nodeId = nodeId;
        this.streams = streams;
        this.memberships = memberships;
        this.kafkaBrokers = kafkaBrokers;
        this.failedWrites = failedWrites;
        this.logDirectory = logDirectory;
        this.raftDirectory = raftDirectory;
    }

    /**
     * Payload: the topic count (int32), then each topic as its CREATE_TOPIC entry's bytes with its generation, by
     * name; then the announced Kafka listeners ({@link KafkaBrokers#writeTo}).
     */
    @Override
    ByteBuf snapshotPayload(final TermIndex applied)
    {
        final ByteBuf payload = Unpooled.buffer(256);
        final Map<String, CreateTopic> byName = new TreeMap<>(topics);
        payload.writeIntLE(byName.size());
        for (final CreateTopic topic : byName.values())
        {
            Fields.writeBytes(payload, ClusterEntryDescriptor.createTopic(topic).getContent().toByteArray());
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
        removeDeletedBefore(snapshot.termIndex().getIndex());
        setLastAppliedTermIndex(snapshot.termIndex());
    }

    /**
     * Removes the engine's topics that the snapshot taken at {@code snapshotIndex} does not hold and that no group
     * of this node shows to be created after it: topics deleted before it, whose delete this node did not apply.
     * One of which this node holds no group has empty partitions here and goes at once (an entry after the
     * snapshot that creates it again creates it anew); one it holds groups of goes once it has left them.
     */
    private void removeDeletedBefore(final long snapshotIndex)
    {
        for (final String name : streams.listTopics())
        {
            final Topic topic = streams.topics().topicOrNull(name);
            if (topics.containsKey(name) || topic == null)
            {
                continue;
            }
            final List<RaftGroupId> held = memberships.held(name, topic.partitionCount());
            if (held.stream().anyMatch(group -> ClusterGroups.generationOf(group) > snapshotIndex))
            {
                continue; // created after the snapshot: its entry comes next
            }
            LOGGER.info("node {} removes topic {}, which the cluster deleted while the node was away", nodeId, name);
            if (held.isEmpty())
            {
                deleteFromEngine(name);
            }
            else
            {
                replacing.put(name, memberships.leave(name, topic.partitionCount(), generation -> true)
                    .thenRun(() -> deleteFromEngine(name)));
            }
        }
    }

    @Override
    public CompletableFuture<Message> applyTransaction(final TransactionContext transaction)
    {
        final LogEntryProto entry = transaction.getLogEntry();
        final Reply reply = applied(entry);
        updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        return CompletableFuture.completedFuture(ClusterEntryDescriptor.reply(reply));
    }

    private Reply applied(final LogEntryProto entry)
    {
        final ByteString data = entry.getStateMachineLogEntry().getLogData();
        final int type = ClusterEntryDescriptor.type(data);
        if (type == KafkaEntryDescriptor.TYPE_ANNOUNCE_KAFKA)
        {
            kafkaBrokers.announced(KafkaEntryDescriptor.decodeAnnounceKafka(data));
            // the entry's index is the node's block of producer ids, which no other entry's index can repeat
            return new Reply(STATUS_STORED, entry.getIndex(), 0, "");
        }
        return switch (type)
        {
            case ClusterEntryDescriptor.TYPE_DELETE_TOPIC -> delete(ClusterEntryDescriptor.decodeDeleteTopic(data));
            case ClusterEntryDescriptor.TYPE_ALTER_TOPIC_RETENTION ->
                alter(ClusterEntryDescriptor.decodeAlterTopicRetention(data));
            default -> apply(ClusterEntryDescriptor.decodeCreateTopic(data).withGeneration(entry.getIndex()));
        };
    }

    @Override
    void snapshotNotWritten(final IOException cause)
    {
        failedWrites.stopNode("a snapshot of the metadata group", raftDirectory, cause);
    }

    /** Ratis could not write the group's Raft log here: the entries after it would be missing on this node. */
    @Override
    public void notifyLogFailed(final Throwable cause, final LogEntryProto failedEntry)
    {
        failedWrites.stopNode("the metadata group's Raft log", raftDirectory, cause);
    }

    /** Creates the topic; the reply's base offset is its generation. */
    private Reply apply(final CreateTopic create)
    {
        final String name = create.name();
        if (topics.containsKey(name))
        {
            return Reply.refused("topic " + name + " exists");
        }
        awaitReplaced(name);
        final Topic existing = streams.topics().topicOrNull(name);
        if (existing == null)
        {
            try
            {
                streams.createTopic(name, create.config());
            }
            catch (final InvalidTopicException refused)
            {
                // the engine judges a name and settings the same way on every node, so every node refuses it
                return Reply.refused(refused.getMessage());
            }
            catch (final UncheckedIOException failed)
            {
                throw stop("the files of topic " + name, failed);
            }
        }
        else
        {
            takeOver(existing, create);
            keepRetention(existing, create.config());
        }
        topics.put(name, create);
        memberships.join(create);
        return new Reply(STATUS_STORED, create.generation(), create.config().partitions(), "");
    }

    /**
     * Takes the engine's copy of a topic as the one {@code create} makes, unless it is a deleted topic's of the same
     * name: this node holds groups of it of other generations only, or (holding none, so its partitions are empty
     * here) it has another partition count. Then, or when groups of other generations are left beside this one's,
     * those are left first, and a deleted topic's copy is replaced.
     */
    private void takeOver(final Topic existing, final CreateTopic create)
    {
        final String name = create.name();
        final List<RaftGroupId> held = memberships.held(name, existing.partitionCount());
        final boolean ofThisGeneration = held.stream()
            .anyMatch(group -> ClusterGroups.generationOf(group) == create.generation());
        final boolean deletedOnes = held.stream()
            .anyMatch(group -> ClusterGroups.generationOf(group) != create.generation());
        final boolean replaced = held.isEmpty() ? existing.partitionCount() != create.config().partitions() :
            !ofThisGeneration;
        if (!replaced && !deletedOnes)
        {
            return;
        }
        final CompletableFuture<Void> left = memberships.leave(name, existing.partitionCount(),
            generation -> generation != create.generation());
        if (!replaced)
        {
            replacing.put(name, left);
            return;
        }
        LOGGER.info("node {} replaces its copy of topic {}, which the cluster deleted while the node was away",
            nodeId, name);
        replacing.put(name, left.thenRun(() ->
        {
            if (deleteFromEngine(name))
            {
                streams.createTopic(name, create.config());
            }
        }));
    }

    /**
     * Gives the topic new retention limits on this node, and keeps them as its CREATE_TOPIC entry's settings, so
     * that a snapshot carries them. Every node judges the limits the same way, so every node refuses bad ones.
     */
    private Reply alter(final AlterTopicRetention alter)
    {
        final CreateTopic topic = topics.get(alter.name());
        if (topic == null)
        {
            return Reply.refused("the cluster has no topic " + alter.name());
        }
        final TopicConfig changed;
        try
        {
            changed = topic.config().withRetention(alter.retentionMillis(), alter.retentionBytes());
        }
        catch (final IllegalArgumentException refused)
        {
            return Reply.refused(refused.getMessage());
        }
        awaitReplaced(alter.name());
        final Topic existing = streams.topics().topicOrNull(alter.name());
        if (existing != null)
        {
            keepRetention(existing, changed);
        }
        topics.put(alter.name(), topic.withConfig(changed));
        return new Reply(STATUS_STORED, topic.generation(), changed.partitions(), "");
    }

    /** The engine's copy of a topic keeps the retention limits the metadata group gives it. */
    private void keepRetention(final Topic existing, final TopicConfig wanted)
    {
        final LogConfig held = existing.config().log();
        if (held.retentionMillis() == wanted.log().retentionMillis() &&
            held.retentionBytes() == wanted.log().retentionBytes())
        {
            return;
        }
        try
        {
            streams.alterTopic(existing.name(), existing.config().withRetention(wanted.log().retentionMillis(),
                wanted.log().retentionBytes()));
        }
        catch (final UnknownTopicException replaced)
        {
            // a deleted topic's copy went meanwhile; its replacement is made with the group's settings
        }
        catch (final UncheckedIOException failed)
        {
            throw stop("the settings of topic " + existing.name(), failed);
        }
    }

    /** Stops the node; the exception is thrown from the apply, so that Ratis applies nothing more here. */
    private RuntimeException stop(final String what, final Throwable cause)
    {
        failedWrites.stopNode(what, logDirectory, cause);
        return new IllegalStateException("node " + nodeId + " applies no more entries of the metadata group: it " +
            "cannot write " + what + " to " + logDirectory, cause);
    }

    private Reply delete(final String name)
    {
        final CreateTopic topic = topics.remove(name);
        if (topic == null)
        {
            return Reply.refused("the cluster has no topic " + name);
        }
        awaitReplaced(name);
        try
        {
            memberships.leave(name, topic.config().partitions(), generation -> true).join();
        }
        catch (final CompletionException | CancellationException closing)
        {
            // the topic's files stay until the node, started again, applies this entry or a snapshot after it
            LOGGER.info("node {} closed before it left the groups of deleted topic {}", nodeId, name);
            return new Reply(STATUS_STORED, 0, 0, "");
        }
        try
        {
            deleteFromEngine(name);
        }
        catch (final UncheckedIOException failed)
        {
            throw stop("the deletion of topic " + name, failed);
        }
        return new Reply(STATUS_STORED, 0, 0, "");
    }

    private void awaitReplaced(final String name)
    {
        final CompletableFuture<Void> pending = replacing.remove(name);
        if (pending == null)
        {
            return;
        }
        try
        {
            pending.join();
        }
        catch (final CompletionException | CancellationException failed)
        {
            LOGGER.warn("node {} could not remove its copy of deleted topic {}", nodeId, name, failed);
        }
    }

    /**
     * Deletes the topic's files and whatever of this node's own engine reads it, once this node holds no group of
     * it: a group whose removal failed would find no topic of its own when the node starts again, so the files stay
     * until a later start removes both.
     *
     * @return whether the engine holds no topic of that name now.
     */
    private boolean deleteFromEngine(final String name)
    {
        final Topic topic = streams.topics().topicOrNull(name);
        if (topic == null)
        {
            return true;
        }
        if (!memberships.held(name, topic.partitionCount()).isEmpty())
        {
            LOGGER.error("node {} keeps the files of deleted topic {}: it could not leave all of the topic's groups; " +
                "restart it to remove both", nodeId, name);
            return false;
        }
        streams.deleteTopic(name, true);
        return true;
    }

    /**
     * Answers a query naming a topic (UTF-8) with the topic as its CREATE_TOPIC entry with its generation, or an
     * empty message when the cluster has none of that name: how a client learns a topic's partitions, replication
     * factor and generation, and so its groups.
     */
    @Override
    public CompletableFuture<Message> query(final Message request)
    {
        final CreateTopic topic = topics.get(request.getContent().toStringUtf8());
        return CompletableFuture.completedFuture(topic == null ? Message.EMPTY :
            ClusterEntryDescriptor.createTopic(topic));
    }
}
