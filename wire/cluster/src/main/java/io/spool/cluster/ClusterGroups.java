package io.spool.cluster;

import io.spool.api.stream.TopicPartition;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.RaftServer;

import java.io.IOException;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The Raft groups of a cluster: one metadata group of every node, and one group per partition of a replicated
 * topic, of {@code replicationFactor} nodes placed by the topic and partition. Ids are derived from the member list
 * and the names, so every node (and every client) computes the same groups without asking, and a node started with
 * a different member list derives other ids: its requests fail with a group mismatch and it can join no group of
 * the others, so it can never make a majority of its own with them. A partition's group id also holds its topic's
 * generation, so a deleted topic's groups and those of a topic created again under its name never meet.
 * Immutable, thread-safe.
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

    /**
     * The group of one partition of a topic's {@code generation} (the index of the entry that created it): {@code
     * replicationFactor} consecutive members from a start the names pick.
     */
    public RaftGroup partition(final String topic, final int partition, final int replicationFactor,
        final long generation)
    {
        final int start = Math.floorMod(topic.hashCode() + partition, peers.size());
        final List<RaftPeer> chosen = new ArrayList<>(replicationFactor);
        for (int i = 0; i < replicationFactor; i++)
        {
            chosen.add(peers.get((start + i) % peers.size()));
        }
        return RaftGroup.valueOf(partitionGroupId(new TopicPartition(topic, partition), generation), chosen);
    }

    /**
     * The high half of the id names the partition (from the member list and the names), the low half is the
     * topic's generation: a topic created again under a deleted one's name gets groups of its own, and a node
     * finds which partition a group it holds belongs to from the id alone ({@link #isGroupOf}).
     */
    public RaftGroupId partitionGroupId(final TopicPartition partition, final long generation)
    {
        return RaftGroupId.valueOf(new UUID(partitionBits(partition), generation));
    }

    /** Whether {@code group} is a group of {@code partition}, of any generation. */
    public boolean isGroupOf(final RaftGroupId group, final TopicPartition partition)
    {
        return group.getUuid().getMostSignificantBits() == partitionBits(partition);
    }

    /** The generation of the topic a partition's group belongs to. */
    public static long generationOf(final RaftGroupId partitionGroup)
    {
        return partitionGroup.getUuid().getLeastSignificantBits();
    }

    /** The group among {@code held} that is of {@code partition} (of any generation), or null. */
    public RaftGroupId groupOf(final Iterable<RaftGroupId> held, final TopicPartition partition)
    {
        final long bits = partitionBits(partition);
        for (final RaftGroupId group : held)
        {
            if (group.getUuid().getMostSignificantBits() == bits)
            {
                return group;
            }
        }
        return null;
    }

    /** Each group among {@code held} that is of one of {@code partitions} (of any generation), with its partition. */
    public Map<RaftGroupId, TopicPartition> partitionsOf(final Iterable<RaftGroupId> held,
        final Iterable<TopicPartition> partitions)
    {
        final Map<Long, TopicPartition> byBits = new HashMap<>();
        for (final TopicPartition partition : partitions)
        {
            byBits.put(partitionBits(partition), partition);
        }
        final Map<RaftGroupId, TopicPartition> found = new HashMap<>();
        for (final RaftGroupId group : held)
        {
            final TopicPartition partition = byBits.get(group.getUuid().getMostSignificantBits());
            if (partition != null)
            {
                found.put(group, partition);
            }
        }
        return found;
    }

    private long partitionBits(final TopicPartition partition)
    {
        return groupId("partition/" + partition.topic() + "/" + partition.partition()).getUuid()
            .getMostSignificantBits();
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
