package io.spool.cluster;

import io.netty.buffer.ByteBuf;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.util.LifeCycle;

import java.io.IOException;

/**
 * A Spool state machine whose group's Raft log is trimmed behind its snapshots: it loads the latest snapshot when
 * the group starts and again when Ratis installed one the leader sent (pause, then reinitialize), and writes one
 * whenever Ratis asks, in its own {@link SnapshotFiles}. Ratis calls all of these on the group's apply thread, the
 * thread that owns the state, so a snapshot needs no lock.
 */
abstract class SnapshottingStateMachine extends BaseStateMachine
{
    final SnapshotFiles snapshots;

    SnapshottingStateMachine(final int snapshotKind)
    {
        this.snapshots = new SnapshotFiles(snapshotKind);
    }

    @Override
    public void initialize(final RaftServer server, final RaftGroupId groupId, final RaftStorage storage)
        throws IOException
    {
        super.initialize(server, groupId, storage);
        snapshots.init(storage);
        getLifeCycle().startAndTransition(this::loadLatestSnapshot, IOException.class);
    }

    @Override
    public StateMachineStorage getStateMachineStorage()
    {
        return snapshots.storage();
    }

    /** Ratis pauses the group before it installs a snapshot the leader sent, then reinitializes it from that. */
    @Override
    public void pause()
    {
        getLifeCycle().transition(LifeCycle.State.PAUSING);
        getLifeCycle().transition(LifeCycle.State.PAUSED);
    }

    @Override
    public void reinitialize() throws IOException
    {
        getLifeCycle().startAndTransition(this::loadLatestSnapshot, IOException.class);
    }

    @Override
    public final long takeSnapshot() throws IOException
    {
        final TermIndex applied = getLastAppliedTermIndex();
        if (applied == null || applied.getIndex() < 0)
        {
            return RaftLog.INVALID_LOG_INDEX;
        }
        final ByteBuf payload = snapshotPayload(applied);
        try
        {
            snapshots.write(applied, payload);
        }
        catch (final IOException failed)
        {
            snapshotNotWritten(failed);
            throw failed;
        }
        return applied.getIndex();
    }

    /**
     * The snapshot could not be written to the group's storage (a full disk, most often). Ratis keeps the one
     * before and would try again after every later entry.
     */
    abstract void snapshotNotWritten(IOException cause);

    /**
     * What applying every entry up to {@code applied} built, for the snapshot taken there.
     *
     * @throws IOException when no snapshot can be taken there now (Ratis tries again at the next one).
     */
    abstract ByteBuf snapshotPayload(TermIndex applied) throws IOException;

    /** Takes the state of the latest snapshot ({@link SnapshotFiles#loadLatest}), when there is one. */
    abstract void loadLatestSnapshot() throws IOException;
}
