package io.spool.cluster;

import io.spool.api.stream.TopicPartition;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;

import java.io.IOException;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The Raft groups of a cluster: one metadata group of every node, and one group per partition of a replicated
 * topic, of {@code replicationFactor} nodes placed by the topic and partition. Ids are derived from the member list
 * and the names, so every node (and every client) computes the same groups without asking, and a node started with
 * a different member list derives other ids: its requests fail with a group mismatch and it can join no group of
 * the others, so it can never make a majority of its own with them. Immutable, thread-safe.
 */
public final class ClusterGroups
{
    private final ClusterMembers members;
    private final List<RaftPeer> peers;
    private final RaftGroup metadata;

    public ClusterGroups(final ClusterMembers members)
    {
        this.members = members;
        final List<RaftPeer> all = new ArrayList<>();
        for (final ClusterMembers.Member member : members.members())
        {
            all.add(RaftPeer.newBuilder().setId(peerId(member.id())).setAddress(member.address()).build());
        }
        this.peers = List.copyOf(all);
        this.metadata = RaftGroup.valueOf(groupId("metadata"), peers);
    }

    public static RaftPeerId peerId(final int nodeId)
    {
        return RaftPeerId.valueOf("n" + nodeId);
    }

    /** The node id a peer id stands for: the inverse of {@link #peerId}. */
    public static int nodeId(final RaftPeerId peer)
    {
        return Integer.parseInt(peer.toString().substring(1));
    }

    /** The node leading a group as {@code server}'s member of it knows it; -1 while it knows none or is closing. */
    static int leaderOf(final RaftServer server, final RaftGroupId group)
    {
        try
        {
            final RaftPeerId leader = server.getDivision(group).getInfo().getLeaderId();
            return leader == null ? -1 : nodeId(leader);
        }
        catch (final IOException closing)
        {
            return -1;
        }
    }

    public ClusterMembers members()
    {
        return members;
    }

    public RaftGroup metadata()
    {
        return metadata;
    }

    /** The group of one partition: {@code replicationFactor} consecutive members from a start the names pick. */
    public RaftGroup partition(final String topic, final int partition, final int replicationFactor)
    {
        final int start = Math.floorMod(topic.hashCode() + partition, peers.size());
        final List<RaftPeer> chosen = new ArrayList<>(replicationFactor);
        for (int i = 0; i < replicationFactor; i++)
        {
            chosen.add(peers.get((start + i) % peers.size()));
        }
        return RaftGroup.valueOf(partitionGroupId(new TopicPartition(topic, partition)), chosen);
    }

    public RaftGroupId partitionGroupId(final TopicPartition partition)
    {
        return groupId("partition/" + partition.topic() + "/" + partition.partition());
    }

    private RaftGroupId groupId(final String name)
    {
        return RaftGroupId.valueOf(UUID.nameUUIDFromBytes(("spool/" + members + "/" + name).getBytes(UTF_8)));
    }

    /**
     * @throws IllegalArgumentException when the factor cannot be placed on this cluster.
     */
    public void checkReplicationFactor(final int replicationFactor)
    {
        if (replicationFactor < 1 || replicationFactor > peers.size() || replicationFactor % 2 == 0)
        {
            throw new IllegalArgumentException("replication factor " + replicationFactor + " cannot be placed: it " +
                "must be odd (a majority of its nodes confirms) and at most the cluster's " + peers.size() +
                " nodes");
        }
    }
}
