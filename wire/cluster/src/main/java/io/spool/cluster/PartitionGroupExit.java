package io.spool.cluster;

import io.spool.api.stream.TopicPartition;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.statemachine.impl.BaseStateMachine;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * How a partition's state machine leaves its group after a write this node could not make ({@link FailedWrites}):
 * once, the first way asked, and not at all while the node closes, when a failing store is no reason to leave.
 * Once it has left, the state machine applies nothing more, so no later record can take a wrong offset here.
 * Thread-safe: stores fail on the pipeline's and the common pool's threads, the Raft log on Ratis' own.
 */
final class PartitionGroupExit
{
    /** The state machine whose server and group are left; asked only once Ratis initialized it. */
    private final BaseStateMachine machine;
    private final FailedWrites failedWrites;
    private final TopicPartition where;
    /** Set once a write failed here: the node has left the group and applies nothing more. */
    private final AtomicBoolean leaving = new AtomicBoolean();
    /** Set when the node closes: a store that fails then is not a reason to leave the group. */
    private final AtomicBoolean closing = new AtomicBoolean();

    PartitionGroupExit(final BaseStateMachine machine, final FailedWrites failedWrites, final TopicPartition where)
    {
        this.machine = machine;
        this.failedWrites = failedWrites;
        this.where = where;
    }

    /** Whether the node left the group after a failed write. */
    boolean hasLeft()
    {
        return leaving.get();
    }

    /** The node is closing: no failure from now on makes it leave. */
    void closing()
    {
        closing.set(true);
    }

    /** Leaves because {@code what} could not be written to {@code directory}. */
    void afterFailedWrite(final String what, final Path directory, final Throwable cause)
    {
        leave(server -> failedWrites.leave(server, machine.getGroupId(), what, where, directory, cause));
    }

    /** Leaves because the records below the loaded snapshot's end could not be fetched ({@link LogRepair}). */
    void afterFailedRepair(final Throwable cause)
    {
        leave(server -> failedWrites.leaveUnrepaired(server, machine.getGroupId(), where, cause));
    }

    private void leave(final Consumer<RaftServer> how)
    {
        if (!closing.get() && leaving.compareAndSet(false, true))
        {
            machine.getServer().thenAccept(how);
        }
    }
}
