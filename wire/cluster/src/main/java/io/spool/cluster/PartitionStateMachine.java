package io.spool.cluster;

import io.netty.buffer.ByteBuf;
import io.spool.api.stream.TopicPartition;
import io.spool.log.PartitionLog;
import io.spool.stream.GroupCoordinator;
import io.spool.stream.StreamProducer;
import org.apache.ratis.proto.RaftProtos.LogEntryProto;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftClientRequest;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.TransactionContext;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The state machine of one replicated partition, as Ratis sees it: it applies the group's committed entries, in
 * order, so every node stores the same records at the same offsets with the same bytes and holds the same queue
 * state, and it hands each of Ratis' calls to the part that does that job:
 * <ul>
 * <li>{@link PartitionEntryApplier} applies each entry by its type: envelopes, queue entries to the subscriptions
 * ({@link ReplicatedSubscriptions}), records and consumer-group offsets to {@link CommittedRecords}, which counts
 * the replicated offsets and stores what the local log lacks;</li>
 * <li>{@link PartitionSnapshotter} writes the group's snapshot and loads it on a restart or an install, and has the
 * local log repaired ({@link LogRepair}) when it lacks records below the snapshot;</li>
 * <li>{@link PartitionQueries} answers the replicated end, a group's committed offset and a repairing member;</li>
 * <li>{@link PartitionLeaderDuties} does what only the leader does: it stamps queue entries with its clock and
 * copies dead letters to their dead-letter topics;</li>
 * <li>{@link PartitionGroupExit} makes the node leave the group when it cannot store a committed entry or write
 * the group's Raft log ({@link FailedWrites}): it applies nothing after it, and the restarted node stores it and
 * what follows from the group's log.</li>
 * </ul>
 * So the local log may lose an unforced tail in a crash and get it back from the group, and a confirm needs only
 * the majority's Raft logs to be forced.
 * <p>
 * Ratis applies a group's entries one at a time, and takes and loads snapshots on the same thread; queries read
 * beside it.
 */
final class PartitionStateMachine extends SnapshottingStateMachine
{
    private final TopicPartition where;
    private final ReplicatedSubscriptions subscriptions;
    private final CommittedRecords records;
    private final PartitionEntryApplier entries;
    private final PartitionSnapshotter snapshotter;
    private final PartitionQueries queries;
    private final PartitionLeaderDuties leaderDuties;
    private final PartitionGroupExit exit;
    /** The group's Raft storage on this node, named when a write to the Raft log fails. */
    private Path raftDirectory;

    PartitionStateMachine(final String topic, final int partition, final PartitionLog log,
        final StreamProducer producer, final GroupCoordinator groups, final FailedWrites failedWrites,
        final Path logDirectory, final DeadLetterSender deadLetterSender)
    {
        super(RaftSnapshotDescriptor.KIND_PARTITION);
        this.where = new TopicPartition(topic, partition);
        this.subscriptions = new ReplicatedSubscriptions(topic, partition);
        this.exit = new PartitionGroupExit(this, failedWrites, where);
        this.leaderDuties = new PartitionLeaderDuties(this, where, log, deadLetterSender);
        this.records = new CommittedRecords(where, log, producer, groups, logDirectory, exit);
        this.entries = new PartitionEntryApplier(topic, partition, records, subscriptions, leaderDuties);
        this.snapshotter = new PartitionSnapshotter(this, snapshots, where, records, subscriptions, leaderDuties,
            producer, exit);
        this.queries = new PartitionQueries(where, log, groups, records);
    }

    @Override
    public void initialize(final RaftServer server, final RaftGroupId groupId, final RaftStorage storage)
        throws IOException
    {
        raftDirectory = storage.getStorageDir().getRoot().toPath();
        super.initialize(server, groupId, storage);
    }

    @Override
    ByteBuf snapshotPayload(final TermIndex applied) throws IOException
    {
        return snapshotter.payload(applied);
    }

    @Override
    void snapshotNotWritten(final IOException cause)
    {
        exit.afterFailedWrite("a snapshot", raftDirectory, cause);
    }

    @Override
    void loadLatestSnapshot() throws IOException
    {
        final TermIndex loaded = snapshotter.loadLatest();
        if (loaded != null)
        {
            setLastAppliedTermIndex(loaded);
        }
    }

    /**
     * The node is closing: no failure makes it leave the group any more, and a repair of the log stops
     * ({@link CommittedRecords#closing}).
     */
    void closing()
    {
        exit.closing();
        records.closing();
    }

    @Override
    public TransactionContext startTransaction(final RaftClientRequest request) throws IOException
    {
        final ByteString stamped = PartitionLeaderDuties.stampedQueueEntry(request.getMessage().getContent());
        if (stamped == null)
        {
            return super.startTransaction(request);
        }
        return TransactionContext.newBuilder()
            .setStateMachine(this)
            .setClientRequest(request)
            .setLogData(stamped)
            .build();
    }

    @Override
    public CompletableFuture<Message> applyTransaction(final TransactionContext transaction)
    {
        final LogEntryProto entry = transaction.getLogEntry();
        if (exit.hasLeft())
        {
            // not counted as applied: the restarted node applies it, after the entry it could not store
            return CompletableFuture.failedFuture(new IllegalStateException("node left the group of " + where +
                " after a failed write; entry " + entry.getIndex() + " is not applied here"));
        }
        try
        {
            return entries.apply(entry.getStateMachineLogEntry().getLogData());
        }
        finally
        {
            updateLastAppliedTermIndex(entry.getTerm(), entry.getIndex());
        }
    }

    @Override
    public LeaderEventApi leaderEvent()
    {
        return new LeaderEventApi()
        {
            @Override
            public void notifyLeaderReady()
            {
                leaderDuties.leaderReady();
            }
        };
    }

    /** Ratis could not write the group's Raft log here: the entries after it would be missing on this node. */
    @Override
    public void notifyLogFailed(final Throwable cause, final LogEntryProto failedEntry)
    {
        exit.afterFailedWrite("the Raft log", raftDirectory, cause);
    }

    /** The offset the next committed record takes: the end of the records applied so far. */
    long replicatedEnd()
    {
        return records.replicatedEnd();
    }

    /** The partition's subscriptions on this node, for comparing nodes. */
    ReplicatedSubscriptions subscriptions()
    {
        return subscriptions;
    }

    /** The dead letters this node's state still owes to dead-letter topics, as the apply thread last saw them. */
    List<DeadLetterCopies.OwedCopy> owedDeadLetterCopies()
    {
        return leaderDuties.owedDeadLetterCopies();
    }

    @Override
    public CompletableFuture<Message> queryStale(final Message request, final long minIndex)
    {
        return CompletableFuture.completedFuture(queries.answerStale(request));
    }

    @Override
    public CompletableFuture<Message> query(final Message request)
    {
        return CompletableFuture.completedFuture(queries.answer(request));
    }
}
