package io.spool.cluster;

import io.netty.buffer.ByteBuf;
import io.spool.api.stream.TopicPartition;
import io.spool.stream.StreamProducer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.statemachine.impl.BaseStateMachine;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * Takes and loads the snapshots of a partition group's state: what applying the entries built beside the Spool log
 * (the replicated end, the producer windows, the consumer-group offsets committed through the group and their
 * coordinators' epochs, and the subscriptions' state, {@link PartitionSnapshot}); the records are in the Spool log,
 * which holds them all when the snapshot is taken. A log that lacks records below a loaded snapshot's end (it lost
 * them, or the leader installed its snapshot here) gets them from the other members' logs ({@link LogRepair})
 * before any later record is stored, and the node leaves the group when it cannot.
 * <p>
 * Not thread-safe: Ratis takes and loads snapshots on the group's apply thread.
 */
final class PartitionSnapshotter
{
    /** The state machine whose server and group a repair asks; asked only once Ratis initialized it. */
    private final BaseStateMachine machine;
    private final SnapshotFiles files;
    private final TopicPartition where;
    private final CommittedRecords records;
    private final ReplicatedSubscriptions subscriptions;
    private final PartitionLeaderDuties leaderDuties;
    /** Stores the records a repair fetches. */
    private final StreamProducer producer;
    private final PartitionGroupExit exit;

    PartitionSnapshotter(final BaseStateMachine machine, final SnapshotFiles files, final TopicPartition where,
        final CommittedRecords records, final ReplicatedSubscriptions subscriptions,
        final PartitionLeaderDuties leaderDuties, final StreamProducer producer, final PartitionGroupExit exit)
    {
        this.machine = machine;
        this.files = files;
        this.where = where;
        this.records = records;
        this.subscriptions = subscriptions;
        this.leaderDuties = leaderDuties;
        this.producer = producer;
        this.exit = exit;
    }

    /**
     * The snapshot of every entry applied so far. Ratis asks for it on the apply thread once every entry's future
     * completed, so every record is stored and every group offset committed; it never waits here, so that a node
     * closing while it snapshots is not held up.
     *
     * @throws IOException when a record or an offset is not stored yet; the next snapshot tries again.
     */
    ByteBuf payload(final TermIndex applied) throws IOException
    {
        final String notYet = records.notSnapshottable();
        if (notYet != null)
        {
            throw new IOException(where + " takes no snapshot at " + applied + ": " + notYet);
        }
        return PartitionSnapshot.encode(records.replicatedEnd(), records.windows(), records.replicatedCommits(),
            records.coordinatorEpochs(), subscriptions);
    }

    /**
     * Takes the state of the latest snapshot, if there is one, and fetches the records the local log lacks below
     * its end; the entries after it are applied next.
     *
     * @return the entry the loaded snapshot was taken at, or null when the group has none.
     * @throws DamagedSnapshotException naming the file when the latest snapshot cannot be loaded.
     */
    TermIndex loadLatest() throws IOException
    {
        final long storedEnd = records.countStored();
        final SnapshotFiles.Loaded snapshot = files.loadLatest();
        if (snapshot == null)
        {
            return null;
        }
        final PartitionSnapshot.Restored restored = PartitionSnapshot.decode(snapshot, records.windows(),
            records.coordinatorEpochs(), subscriptions);
        leaderDuties.owedCopiesOf(subscriptions);
        final long replicatedEnd = restored.replicatedEnd();
        final CompletableFuture<Void> repaired = storedEnd >= replicatedEnd ?
            CompletableFuture.completedFuture(null) :
            LogRepair.start(machine.getServer().join(), machine.getGroupId(), where, producer, storedEnd,
                replicatedEnd);
        records.restore(replicatedEnd, restored.groupOffsets(), repaired);
        repaired.whenComplete((done, failure) ->
        {
            if (failure != null)
            {
                exit.afterFailedRepair(failure);
            }
        });
        return snapshot.termIndex();
    }
}
