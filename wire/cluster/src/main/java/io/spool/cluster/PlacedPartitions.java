package io.spool.cluster;

import io.spool.api.InvalidRequestException;
import io.spool.cluster.ClusterEntryDescriptor.CreateTopic;
import io.spool.wire.server.HeldPartitions;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.server.RaftServer;

import java.io.IOException;
import java.util.List;

/**
 * The partitions placed on one node, as its native server asks before reading a partition, taking a subscription's
 * deliveries or a group's commits of it, or describing its topic: the topic's replication factor comes from this
 * node's copy of the metadata group's state (a local query, no request over the network), and the placement from
 * {@link ClusterGroups#partition}. Thread-safe.
 */
final class PlacedPartitions implements HeldPartitions
{
    private final int nodeId;
    private final ClusterGroups groups;
    private final RaftServer raft;

    PlacedPartitions(final int nodeId, final ClusterGroups groups, final RaftServer raft)
    {
        this.nodeId = nodeId;
        this.groups = groups;
        this.raft = raft;
    }

    @Override
    public boolean requireHeld(final String topic, final int partition)
    {
        final CreateTopic created = replicatedTopic(topic);
        if (created == null)
        {
            return false;
        }
        final RaftGroup group = placement(created, partition);
        if (holds(group))
        {
            return true;
        }
        throw new InvalidRequestException("node " + nodeId + " holds no copy of " + topic + "-" + partition +
            " (replication factor " + created.replicationFactor() + " of the cluster's " + groups.members().size() +
            " nodes): read it from " + holders(group));
    }

    @Override
    public List<Integer> holdersElsewhere(final String topic, final int partition)
    {
        final CreateTopic created = replicatedTopic(topic);
        if (created == null)
        {
            return List.of();
        }
        final RaftGroup group = placement(created, partition);
        return holds(group) ? List.of() : nodeIds(group);
    }

    private RaftGroup placement(final CreateTopic created, final int partition)
    {
        return groups.partition(created.name(), partition, created.replicationFactor(), created.generation());
    }

    private boolean holds(final RaftGroup group)
    {
        return group.getPeer(ClusterGroups.peerId(nodeId)) != null;
    }

    private static List<Integer> nodeIds(final RaftGroup group)
    {
        return group.getPeers().stream().map(RaftPeer::getId).map(ClusterGroups::nodeId).sorted().toList();
    }

    /** "node 3, which holds it", or "node 1, 2 or 3, which hold it". */
    private static String holders(final RaftGroup group)
    {
        final List<String> ids = nodeIds(group).stream().map(String::valueOf).toList();
        final int last = ids.size() - 1;
        return last == 0 ? "node " + ids.get(0) + ", which holds it" :
            "node " + String.join(", ", ids.subList(0, last)) + " or " + ids.get(last) + ", which hold it";
    }

    /** The topic as this node's metadata group created it, or null while it knows no such topic. */
    private CreateTopic replicatedTopic(final String topic)
    {
        final Message answer;
        try
        {
            answer = raft.getDivision(groups.metadata().getGroupId()).getStateMachine()
                .query(Message.valueOf(topic)).join();
        }
        catch (final IOException closing)
        {
            return null;
        }
        return answer.getContent().isEmpty() ? null : ClusterEntryDescriptor.decodeCreateTopic(answer.getContent());
    }
}
