package io.spool.cluster;

import io.spool.api.stream.TopicPartition;
import io.spool.log.PartitionLog;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.statemachine.impl.BaseStateMachine;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

import java.io.IOException;
import java.util.List;

/**
 * What only the leader of a partition's group does: it stamps each queue entry with its clock before the entry is
 * replicated, and copies the dead letters the subscriptions owe to their dead-letter topics ({@link DeadLetterCopier})
 * once it has applied every entry of the terms before its own. Every node hands it the copies its state owes, so
 * whichever node leads next finds them.
 */
final class PartitionLeaderDuties
{
    /** The state machine whose division says whether this node leads; asked only once Ratis initialized it. */
    private final BaseStateMachine machine;
    private final DeadLetterCopier deadLetters;

    PartitionLeaderDuties(final BaseStateMachine machine, final TopicPartition where, final PartitionLog log,
        final DeadLetterSender deadLetterSender)
    {
        this.machine = machine;
        this.deadLetters = new DeadLetterCopier(where.topic(), where.partition(), log, this::leadsReady,
            deadLetterSender);
    }

    /**
     * The queue entry stamped with this leader's clock, so that every node judges its locks and delays by the one
     * time the entry carries; a client's clock is never trusted, and a follower's never asked. Null for any other
     * entry, which is replicated as the client sent it.
     */
    static ByteString stampedQueueEntry(final ByteString data)
    {
        return QueueEntryDescriptor.isQueueEntry(data) ? QueueEntryDescriptor.stamped(data, System.currentTimeMillis())
            : null;
    }

    /** Takes the copies the subscriptions owe now, as the apply thread left them. */
    void owedCopiesOf(final ReplicatedSubscriptions subscriptions)
    {
        deadLetters.handOver(subscriptions);
    }

    /** The dead letters this node's state still owes to dead-letter topics, as the apply thread last saw them. */
    List<DeadLetterCopies.OwedCopy> owedDeadLetterCopies()
    {
        return deadLetters.owed();
    }

    /** A new leader copies what the old one left owed, once it has applied the old terms' entries. */
    void leaderReady()
    {
        deadLetters.wake();
    }

    /** Whether this node leads the group and has applied every entry of the terms before its own. */
    private boolean leadsReady()
    {
        try
        {
            final DivisionInfo info = machine.getServer().join().getDivision(machine.getGroupId()).getInfo();
            return info.isLeader() && info.isLeaderReady();
        }
        catch (final IOException | RuntimeException notServing)
        {
            return false;
        }
    }
}
