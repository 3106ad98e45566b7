package io.spool.cluster;

import io.netty.buffer.ByteBuf;
import io.spool.api.SpoolException;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.PublishResult;
import io.spool.api.stream.TopicPartition;
import io.spool.cluster.ClusterEntryDescriptor.CommitOffset;
import io.spool.cluster.ClusterEntryDescriptor.Publish;
import io.spool.cluster.ClusterEntryDescriptor.Reply;
import io.spool.cluster.QueueEntryDescriptor.QueueReply;
import io.spool.log.PartitionLog;
import io.spool.stream.GroupCoordinator;
import io.spool.stream.StreamProducer;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.concurrent.ConcurrentHashMap;

import static io.spool.cluster.ClusterEntryDescriptor.STATUS_DUPLICATE;
import static io.spool.cluster.ClusterEntryDescriptor.STATUS_STORED;

/**
 * The state machine of one replicated partition: applies the group's committed PUBLISH entries, in order, to this
 * node's Spool log of the partition, so every node stores the same records at the same offsets with the same bytes.
 * <p>
 * Offsets are counted from the entries, not read from the log: the n-th record the group commits takes offset n on
 * every node. On a restart the node loads the group's latest snapshot and Ratis applies the entries after it;
 * entries whose records already lie in the local log (below the log's end when the node opened) are counted and
 * not stored again, and a batch cut by a crash has only its missing tail stored. So the local log may lose an
 * unforced tail in a crash and get it back from the group, and a confirm needs only the majority's Raft logs to be
 * forced.
 * <p>
 * A snapshot (taken every so many entries, and then the Raft log trimmed up to it) holds what applying the entries
 * before it built: the replicated end, the producer windows, the consumer-group offsets committed through the group
 * and the subscriptions' state; the records are in the Spool log, which holds them all when the snapshot is taken.
 * A log that lacks records below a loaded snapshot's end (it lost them, or the leader installed its snapshot here)
 * gets them from the other members' logs ({@link LogRepair}) before any later record is stored.
 * <p>
 * Queue entries (CREATE_SUBSCRIPTION, RECEIVE, SETTLE) change the partition's subscriptions
 * ({@link ReplicatedSubscriptions}) on the apply thread, judged at the time stamped in the entry. The dead letters
 * they owe to dead-letter topics are handed to a {@link DeadLetterCopier}, which copies them while this node leads
 * and confirms each with a DEAD_LETTER_COPIED entry.
 * <p>
 * COMMIT_OFFSET entries commit a consumer group's offset in the partition, in order with its records, so every
 * node holds the same committed offsets and a failover keeps them.
 * <p>
 * A retried batch (the same producer id and sequence) is answered with the offsets it first got and stored once
 * ({@link ProducerWindows}); since the windows too are rebuilt by applying the same entries, any node that leads
 * answers a retry the same way.
 * <p>
 * A committed entry this node cannot store (its disk is full) makes it leave the group ({@link FailedWrites}): it
 * applies nothing after it, so no later record can take a wrong offset here, and the restarted node stores it and
 * what follows from the group's log. A failed write to the group's own Raft log does the same.
 * <p>
 * Ratis applies a group's entries one at a time; queries read the replicated end beside it, and commits run on
 * the common pool once the records before them are stored.
 */
final class PartitionStateMachine extends SnapshottingStateMachine
{
    private static final Logger LOGGER = LoggerFactory.getLogger(PartitionStateMachine.class);

    private final String topic;
    private final int partition;
    private final PartitionLog log;
    private final StreamProducer producer;
    private final TopicPartition where;
    private final GroupCoordinator groups;
    private final ProducerWindows windows = new ProducerWindows();
    private final ReplicatedSubscriptions subscriptions;
    private final DeadLetterCopier deadLetters;
    private final FailedWrites failedWrites;
    /** This node's Spool log directory, named when a store fails. */
    private final Path logDirectory;
    /** The group's Raft storage on this node, named when a write to the Raft log fails. */
    private Path raftDirectory;
    /** Set once a write failed here: the node has left the group and applies nothing more. */
    private final AtomicBoolean leaving = new AtomicBoolean();
    /**
     * The offsets committed through this group, by consumer group, for the snapshot: the engine also holds offsets
     * committed on this node alone, which are not the group's to copy. Written on the common pool, in entry order.
     */
    private final Map<String, Long> replicatedCommits = new ConcurrentHashMap<>();
    /**
     * The offset the next committed record takes, counted over every entry applied since this node started;
     * written by the apply thread, read by queries too.
     */
    private volatile long nextOffset;
    /** The local log's end when the node opened it: records below it were stored before a restart. */
    private long storedEnd;
    /** Completes once every entry applied so far is in the local log. */
    private CompletableFuture<Reply> stored = CompletableFuture.completedFuture(null);
    /** Completes once the local log holds every record of the loaded snapshot; records after wait for it. */
    private volatile CompletableFuture<Void> repaired = CompletableFuture.completedFuture(null);
    /** Set when the node closes: a store that fails then is not a reason to leave the group. */
    private final AtomicBoolean closing = new AtomicBoolean();

    PartitionStateMachine(final String topic, final int partition, final PartitionLog log,
        final StreamProducer producer, final GroupCoordinator groups, final FailedWrites failedWrites,
        final Path logDirectory, final DeadLetterSender deadLetterSender)
    {
        super(RaftSnapshotDescriptor.KIND_PARTITION);
        this.failedWrites = failedWrites;
        this.logDirectory = logDirectory;
        this.topic = topic;
        this.partition = partition;
        this.where = new TopicPartition(topic, partition);
        this.groups = groups;
        this.subscriptions = new ReplicatedSubscriptions(topic, partition);
        this.deadLetters = new DeadLetterCopier(topic, partition, log, this::leadsReady, deadLetterSender);
        this.log = log;
        this.producer = producer;
    }

    @Override
    public void initialize(final RaftServer server, final RaftGroupId groupId, final RaftStorage storage)
        throws IOException
    {
        raftDirectory = storage.getStorageDir().getRoot().toPath();
        super.initialize(server, groupId, storage);
    }

    /**
     * The snapshot of every entry applied so far ({@link PartitionSnapshot}). Ratis asks for it on the apply
     * thread once every entry's future completed, so every record is stored and every group offset committed; it
     * never waits here, so that a node closing while it snapshots is not held up.
     */
    @Override
    ByteBuf snapshotPayload(final TermIndex applied) throws IOException
    {
        if (!stored.isDone() || stored.isCompletedExceptionally())
        {
            throw new IOException(where + " takes no snapshot at " + applied + ": " + (stored.isDone() ?
                "an entry before it was not stored" : "its records are still being stored") +
                "; the next snapshot tries again");
        }
        if (log.endOffset() < nextOffset)
        {
            throw new IOException(where + " takes no snapshot at " + applied + ": its log ends at " +
                log.endOffset() + ", below the replicated end " + nextOffset);
        }
        return PartitionSnapshot.encode(nextOffset, windows, replicatedCommits, subscriptions);
    }

    /**
     * Takes the state of the latest snapshot, if there is one, and fetches the records the local log lacks below
     * its end; the entries after it are applied next.
     */
    @Override
    void loadLatestSnapshot() throws IOException
    {
        storedEnd = log.endOffset();
        final SnapshotFiles.Loaded snapshot = snapshots.loadLatest();
        if (snapshot == null)
        {
            return;
        }
        final PartitionSnapshot.Restored restored = PartitionSnapshot.decode(snapshot, windows, subscriptions);
        deadLetters.handOver(subscriptions);
        nextOffset = restored.replicatedEnd();
        replicatedCommits.clear();
        setLastAppliedTermIndex(snapshot.termIndex());
        repaired = storedEnd >= nextOffset ? CompletableFuture.completedFuture(null) :
            LogRepair.start(getServer().join(), getGroupId(), where, producer, storedEnd, nextOffset);
        repaired.whenComplete((done, failure) ->
        {
            if (failure != null)
            {
                leave(server -> failedWrites.leaveUnrepaired(server, getGroupId(), where, failure));
            }
        });
        final long replicatedEnd = nextOffset;
        stored = repaired.thenApplyAsync(done ->
        {
            restored.groupOffsets().forEach((group, offset) -> commit(new CommitOffset(group, offset), replicatedEnd));
            return null;
        });
    }

    /**
     * The node is closing: a repair of the log stops, and what waits for it fails (Ratis waits for every applied
     * entry's future before it stops the group, so a repair that cannot end would hold up the close). The restarted
     * node repairs again from its snapshot.
     */
    void closing()
    {
        closing.set(true);
        repaired.completeExceptionally(new IllegalStateException(where + " was closed before its log held every " +
            "record of its snapshot; it fetches them again when it starts"));
    }

    /**
     * Stamps a queue entry with this leader's clock, so that every node judges its locks and delays by the one time
     * the entry carries; a client's clock is never trusted, and a follower's never asked.
     */
    @Override
    public TransactionContext startTransaction(final RaftClientRequest request) throws IOException
    {
        final ByteString data = request.getMessage().getContent();
        if (!QueueEntryDescriptor.isQueueEntry(data))
        {
            return super.startTransaction(request);
        }
        return TransactionContext.newBuilder()
            .setStateMachine(this)
            .setClientRequest(request)
            .setLogData(QueueEntryDescriptor.stamped(data, System.currentTimeMillis()))
            .build();
    }

    @Override
    public CompletableFuture<Message> applyTransaction(final TransactionContext transaction)
    {
        final LogEntryProto entry = transaction.getLogEntry();
        if (leaving.get())
        {
            // not counted as applied: the restarted node applies it, after the entry it could not store
            return CompletableFuture.failedFuture(new IllegalStateException("node left the group of " + where +
                " after a failed write; entry " + entry.getIndex() + " is not applied here"));
        }
        try
        {
            final ByteString data = entry.getStateMachineLogEntry().getLogData();
            return ClusterEntryDescriptor.type(data) == ClusterEntryDescriptor.TYPE_ENVELOPE ? applyEnvelope(data) :
                applyEntry(data);
        }
        finally
        {
            updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        }
    }

    private CompletableFuture<Message> applyEntry(final ByteString data)
    {
        final int type = ClusterEntryDescriptor.type(data);
        if (QueueEntryDescriptor.isQueueType(type))
        {
            // applied here and now: queue state needs the replicated end, not the local log's records
            final QueueReply reply = applyQueueEntry(type, data);
            deadLetters.handOver(subscriptions);
            return CompletableFuture.completedFuture(QueueEntryDescriptor.reply(reply));
        }
        final CompletableFuture<Reply> applied;
        if (type == ClusterEntryDescriptor.TYPE_COMMIT_OFFSET)
        {
            final CommitOffset commit = ClusterEntryDescriptor.decodeCommitOffset(data);
            final long replicatedEnd = nextOffset;
            // after the records before it are in the local log, which the engine checks a commit against; off
            // the pipeline's thread, which completes appends and must not wait for the offsets file
            applied = stored.handleAsync((done, failed) -> commit(commit, replicatedEnd));
            stored = applied;
        }
        else if (type == ClusterEntryDescriptor.TYPE_PUBLISH)
        {
            applied = apply(ClusterEntryDescriptor.decodePublish(topic, partition, data));
            stored = applied;
        }
        else if (type == KafkaEntryDescriptor.TYPE_KAFKA_PUBLISH)
        {
            applied = applyKafka(KafkaEntryDescriptor.decodeKafkaPublish(topic, partition, data));
            stored = applied;
        }
        else
        {
            throw unknownType(type);
        }
        return applied.thenApply(ClusterEntryDescriptor::reply);
    }

    /** Applies an envelope's entries in order, each as an entry of its own, and answers with all their replies. */
    private CompletableFuture<Message> applyEnvelope(final ByteString envelope)
    {
        final List<CompletableFuture<Message>> replies = new ArrayList<>();
        for (final ByteString entry : ClusterEntryDescriptor.decodeEnvelope(envelope))
        {
            final Message refusal = refusalInEnvelope(entry);
            replies.add(refusal != null ? CompletableFuture.completedFuture(refusal) : applyEntry(entry));
        }
        return CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new)).thenApply(all ->
            ClusterEntryDescriptor.envelopeReply(replies.stream().map(CompletableFuture::join).toList()));
    }

    /** Why an envelope cannot hold {@code entry}, as the reply it gets instead; null when it can. */
    private static Message refusalInEnvelope(final ByteString entry)
    {
        final int type = ClusterEntryDescriptor.type(entry);
        if (QueueEntryDescriptor.isQueueType(type))
        {
            return QueueEntryDescriptor.reply(QueueReply.refused(QueueEntryDescriptor.REFUSAL_INVALID, "a queue " +
                "entry travels alone, never in an envelope, since the leader stamps it with its clock"));
        }
        return type == ClusterEntryDescriptor.TYPE_ENVELOPE ?
            ClusterEntryDescriptor.reply(Reply.refused("an envelope holds no envelope")) : null;
    }

    private QueueReply applyQueueEntry(final int type, final ByteString data)
    {
        return switch (type)
        {
            case QueueEntryDescriptor.TYPE_CREATE_SUBSCRIPTION ->
                subscriptions.create(QueueEntryDescriptor.decodeCreateSubscription(data));
            case QueueEntryDescriptor.TYPE_RECEIVE ->
                subscriptions.receive(QueueEntryDescriptor.decodeReceive(data), nextOffset);
            case QueueEntryDescriptor.TYPE_SETTLE -> subscriptions.settle(QueueEntryDescriptor.decodeSettle(data));
            case QueueEntryDescriptor.TYPE_DEAD_LETTER_COPIED ->
                subscriptions.copied(QueueEntryDescriptor.decodeDeadLetterCopied(data));
            default -> throw unknownType(type);
        };
    }

    /** Whether this node leads the group and has applied every entry of the terms before its own. */
    private boolean leadsReady()
    {
        try
        {
            final DivisionInfo info = getServer().join().getDivision(getGroupId()).getInfo();
            return info.isLeader() && info.isLeaderReady();
        }
        catch (final IOException | RuntimeException notServing)
        {
            return false;
        }
    }

    /** A new leader copies what the old one left owed, once it has applied the old terms' entries. */
    @Override
    public LeaderEventApi leaderEvent()
    {
        return new LeaderEventApi()
        {
            @Override
            public void notifyLeaderReady()
            {
                deadLetters.wake();
            }
        };
    }

    private static IllegalStateException unknownType(final int type)
    {
        return new IllegalStateException("cluster entry type " + type + " is unknown to this node: it runs an " +
            "older Spool than the one that wrote the entry; upgrade it");
    }

    private CompletableFuture<Reply> apply(final Publish publish)
    {
        final List<ProducerRecord> records = publish.records();
        if (windows.isRetry(publish.producerId(), publish.sequence()))
        {
            final ProducerWindows.Batch first = windows.retained(publish.producerId(), publish.sequence());
            return CompletableFuture.completedFuture(first == null ?
                Reply.refused("batch " + publish.sequence() + " of producer " + publish.producerId() + " is older " +
                    "than its last " + ProducerWindows.RETAINED_BATCHES + " batches: it was stored before, where " +
                    "is no longer known") :
                new Reply(STATUS_DUPLICATE, first.baseOffset(), first.count(), ""));
        }
        windows.appended(publish.producerId(), publish.sequence(), nextOffset, records.size());
        return store(records);
    }

    /** A Kafka producer's batch, its sequence judged as a Kafka partition leader would ({@link KafkaSequences}). */
    private CompletableFuture<Reply> applyKafka(final KafkaEntryDescriptor.KafkaPublish publish)
    {
        if (publish.hasProducerId())
        {
            final Reply answered = KafkaSequences.check(windows, publish);
            if (answered != null)
            {
                return CompletableFuture.completedFuture(answered);
            }
            windows.appended(publish.producerId(), publish.baseSequence(), nextOffset, publish.records().size());
        }
        return store(publish.records());
    }

    /** Gives the batch the next offsets, and stores what of it the local log does not hold yet. */
    private CompletableFuture<Reply> store(final List<ProducerRecord> records)
    {
        final long baseOffset = nextOffset;
        final int count = records.size();
        nextOffset += count;
        final int alreadyStored = (int)Math.max(0, Math.min(count, storedEnd - baseOffset));
        final Reply stored = new Reply(STATUS_STORED, baseOffset, count, "");
        if (alreadyStored == count)
        {
            return CompletableFuture.completedFuture(stored);
        }
        final long expectedFirst = baseOffset + alreadyStored;
        final List<ProducerRecord> missing = records.subList(alreadyStored, count);
        return repaired.thenCompose(done -> producer.sendBatch(missing)).whenComplete((results, failure) ->
        {
            if (failure != null && !repaired.isCompletedExceptionally())
            {
                leave("a committed batch", logDirectory, failure);
            }
        }).thenApply(results ->
        {
            final PublishResult first = results.get(0);
            if (first.offset() != expectedFirst)
            {
                // Only this group writes this log, so this means the log was written around the cluster.
                LOGGER.error("{}-{} stored a committed batch at offset {} instead of {}: this node's log no longer " +
                    "matches the cluster's; stop the node, delete its log directory (keep raft/) and start it again to " +
                    "rebuild every partition from the groups' logs", topic, partition,
                    first.offset(), expectedFirst);
                throw new IllegalStateException("replicated log of " + topic + "-" + partition + " diverged at " +
                    expectedFirst);
            }
            return stored;
        });
    }

    /**
     * Commits a consumer group's offset in this node's engine. The bound is the replicated end counted when the
     * entry was applied, not the local log's end, so that every node (and a node replaying after a restart, whose log may be ahead) judges
     * the commit the same way.
     */
    private Reply commit(final CommitOffset commit, final long replicatedEnd)
    {
        if (commit.offset() < 0 || commit.offset() > replicatedEnd)
        {
            return Reply.refused("offset " + commit.offset() + " of " + topic + "-" + partition + " is outside " +
                "[0, " + replicatedEnd + "], the partition's replicated records");
        }
        try
        {
            groups.commitStandalone(commit.group(), Map.of(where, commit.offset()));
            replicatedCommits.put(commit.group(), commit.offset());
        }
        catch (final SpoolException refused)
        {
            return Reply.refused(refused.getMessage());
        }
        catch (final UncheckedIOException unwritten)
        {
            // not a bad commit but a disk that refused it: this node's offsets would differ from the others'
            leave("a consumer group's offset", logDirectory, unwritten);
            return Reply.refused(unwritten.getMessage());
        }
        return new Reply(STATUS_STORED, commit.offset(), 0, "");
    }

    /** Ratis could not write the group's Raft log here: the entries after it would be missing on this node. */
    @Override
    public void notifyLogFailed(final Throwable cause, final LogEntryProto failedEntry)
    {
        leave("the Raft log", raftDirectory, cause);
    }

    private void leave(final String what, final Path directory, final Throwable cause)
    {
        leave(server -> failedWrites.leave(server, getGroupId(), what, where, directory, cause));
    }

    /** Leaves the group once, the first way asked, unless the node is closing anyway. */
    private void leave(final Consumer<RaftServer> how)
    {
        if (!closing.get() && leaving.compareAndSet(false, true))
        {
            getServer().thenAccept(how);
        }
    }

    /** The offset the next committed record takes: the end of the records applied so far. */
    long replicatedEnd()
    {
        return nextOffset;
    }

    /** The partition's subscriptions on this node, for comparing nodes. */
    ReplicatedSubscriptions subscriptions()
    {
        return subscriptions;
    }

    /** The dead letters this node's state still owes to dead-letter topics, as the apply thread last saw them. */
    List<DeadLetterCopies.OwedCopy> owedDeadLetterCopies()
    {
        return deadLetters.owed();
    }

    /**
     * Answers a member that repairs its log ({@link LogRepair#request}) with the records this node's log holds; a
     * stale read, since any member's log holds the same bytes for what it has.
     */
    @Override
    public CompletableFuture<Message> queryStale(final Message request, final long minIndex)
    {
        return CompletableFuture.completedFuture(LogRepair.answer(log, topic, partition, request));
    }

    /**
     * Answers an empty query with the offset the next committed record will take (the partition's replicated end),
     * and a query naming a consumer group with its committed offset here.
     */
    @Override
    public CompletableFuture<Message> query(final Message request)
    {
        final long answer = request.getContent().isEmpty() ? nextOffset :
            groups.committed(request.getContent().toStringUtf8(), where);
        return CompletableFuture.completedFuture(
            ClusterEntryDescriptor.reply(new Reply(STATUS_STORED, answer, 0, "")));
    }
}
