package io.spool.cluster;

import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.util.LifeCycle;

import java.io.IOException;
import java.util.function.IntSupplier;

/**
 * Whether a started node serves, for its health check: once every Raft group it holds has loaded (its snapshot
 * read, its log replayed), it has joined the groups of every topic the metadata group placed on it, and it knows a
 * leader of the metadata group, without which no topic can be created and no node learns of one. Thread-safe.
 */
public final class ClusterReadiness
{
    /**
     * What a node is doing, in one line.
     *
     * @param serving     whether it serves.
     * @param description what it serves, or what it waits for.
     */
    public record State(boolean serving, String description)
    {
    }

    private final ClusterMembers members;
    private final RaftServer raft;
    private final IntSupplier joinsPending;
    private final IntSupplier metadataLeader;

    ClusterReadiness(final ClusterMembers members, final RaftServer raft, final IntSupplier joinsPending,
        final IntSupplier metadataLeader)
    {
        this.members = members;
        this.raft = raft;
        this.joinsPending = joinsPending;
        this.metadataLeader = metadataLeader;
    }

    State state()
    {
        int held = 0;
        int loading = 0;
        for (final RaftGroupId groupId : raft.getGroupIds())
        {
            held++;
            if (isLoading(groupId))
            {
                loading++;
            }
        }
        if (loading > 0)
        {
            return new State(false, "loading " + loading + " of its " + count(held, "Raft group") +
                " (reading snapshots, replaying logs)");
        }
        final int joining = joinsPending.getAsInt();
        if (joining > 0)
        {
            return new State(false, "joining the groups of " + count(joining, "partition") + " placed on it");
        }
        final int leader = metadataLeader.getAsInt();
        if (leader < 0)
        {
            return new State(false, "no metadata leader known yet: is a majority of the cluster (" + members +
                ") up, each node started with this same --cluster list?");
        }
        return new State(true, "serving " + count(held, "Raft group") + "; the metadata leader is node " + leader);
    }

    private static String count(final int count, final String what)
    {
        return count + " " + what + (count == 1 ? "" : "s");
    }

    private boolean isLoading(final RaftGroupId groupId)
    {
        try
        {
            final LifeCycle.State state = raft.getDivision(groupId).getInfo().getLifeCycleState();
            return state == LifeCycle.State.NEW || state == LifeCycle.State.STARTING;
        }
        catch (final IOException removed)
        {
            return false;
        }
    }
}
