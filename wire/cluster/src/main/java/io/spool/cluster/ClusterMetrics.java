package io.spool.cluster;

import io.spool.api.MetricSample;
import io.spool.api.stream.TopicPartition;
import io.spool.stream.StreamEngine;
import org.apache.ratis.proto.RaftProtos.ServerRpcProto;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.server.DivisionInfo;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.raftlog.RaftLog;
import org.apache.ratis.statemachine.SnapshotInfo;
import org.apache.ratis.statemachine.StateMachine;

import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A node's cluster figures, as {@link MetricSample}s beside its engine's and its server's: for each Raft group it
 * holds (each partition's, labelled by topic and partition, and the metadata group) whether it leads it, the term,
 * the commit and applied indexes, the latest snapshot's index and, on the leader, how far each follower's log is
 * behind; and for the node, how many of its groups know no leader and how many it left because it could not write.
 * Read from Ratis at each call; thread-safe.
 */
final class ClusterMetrics
{
    private static final String PARTITION = "spool_cluster_partition_";
    private static final String METADATA = "spool_cluster_metadata_";

    private final ClusterGroups groups;
    private final RaftServer raft;
    private final StreamEngine streams;
    private final FailedWrites failedWrites;

    ClusterMetrics(final ClusterGroups groups, final RaftServer raft, final StreamEngine streams,
        final FailedWrites failedWrites)
    {
        this.groups = groups;
        this.raft = raft;
        this.streams = streams;
        this.failedWrites = failedWrites;
    }

    List<MetricSample> samples()
    {
        final List<MetricSample> samples = new ArrayList<>();
        final Map<RaftGroupId, TopicPartition> partitions = partitionsByGroup();
        int held = 0;
        int leaderless = 0;
        for (final RaftGroupId groupId : raft.getGroupIds())
        {
            final RaftServer.Division division;
            try
            {
                division = raft.getDivision(groupId);
            }
            catch (final IOException removed)
            {
                continue; // left or closed since the ids were listed
            }
            final TopicPartition partition = partitions.get(groupId);
            if (partition != null)
            {
                addGroup(samples, PARTITION, "the partition's group",
                    Map.of("topic", partition.topic(), "partition", Integer.toString(partition.partition())), division);
            }
            else if (groupId.equals(groups.metadata().getGroupId()))
            {
                addGroup(samples, METADATA, "the metadata group", Map.of(), division);
            }
            held++;
            if (division.getInfo().getLeaderId() == null)
            {
                leaderless++;
            }
        }
        samples.add(MetricSample.gauge("spool_cluster_groups", "Raft groups this node holds, the metadata group " +
            "and its partitions' groups.", Map.of(), held));
        samples.add(MetricSample.gauge("spool_cluster_leaderless_groups", "Raft groups of this node that know no " +
            "leader now: their publishes wait (an election, or no majority of their nodes reachable).", Map.of(),
            leaderless));
        samples.add(MetricSample.counter("spool_cluster_groups_left_total", "Partition groups this node left since " +
            "it started because it could not write an entry or repair its log; its log says why, and a restart " +
            "once that is fixed rejoins them.", Map.of(), failedWrites.groupsLeft()));
        return samples;
    }

    private Map<RaftGroupId, TopicPartition> partitionsByGroup()
    {
        final List<TopicPartition> partitions = new ArrayList<>();
        for (final String topic : streams.listTopics())
        {
            final int count = streams.topics().topic(topic).partitionCount();
            for (int partition = 0; partition < count; partition++)
            {
                partitions.add(new TopicPartition(topic, partition));
            }
        }
        return groups.partitionsOf(raft.getGroupIds(), partitions);
    }

    private static void addGroup(final List<MetricSample> samples, final String prefix, final String group,
        final Map<String, String> labels, final RaftServer.Division division)
    {
        final DivisionInfo info = division.getInfo();
        final RaftLog log = division.getRaftLog();
        final StateMachine machine = division.getStateMachine();
        final TermIndex applied = machine.getLastAppliedTermIndex();
        final SnapshotInfo snapshot = machine.getLatestSnapshot();
        samples.add(MetricSample.gauge(prefix + "leader", "1 when this node leads " + group + ", else 0.", labels,
            info.isLeader() ? 1 : 0));
        samples.add(MetricSample.gauge(prefix + "term", "The Raft term of " + group + " on this node; it grows " +
            "with every election.", labels, info.getCurrentTerm()));
        samples.add(MetricSample.gauge(prefix + "commit_index", "The last entry of " + group + " this node knows " +
            "committed by a majority.", labels, log.getLastCommittedIndex()));
        samples.add(MetricSample.gauge(prefix + "applied_index", "The last entry of " + group + " this node has " +
            "applied; the commit index minus it is the apply lag.", labels,
            applied == null ? RaftLog.INVALID_LOG_INDEX : applied.getIndex()));
        samples.add(MetricSample.gauge(prefix + "snapshot_index", "The last entry the latest snapshot of " + group +
            " on this node holds, -1 before the first.", labels,
            snapshot == null ? RaftLog.INVALID_LOG_INDEX : snapshot.getIndex()));
        if (info.isLeader())
        {
            addFollowerLags(samples, prefix, group, labels, info, log.getNextIndex() - 1);
        }
    }

    /**
     * Ratis lists a leader's followers (in its role info) and their match indexes in the same order, that of its
     * log appenders; two lists of different lengths mean the leadership changed between the two reads, and the
     * next scrape has them.
     */
    private static void addFollowerLags(final List<MetricSample> samples, final String prefix, final String group,
        final Map<String, String> labels, final DivisionInfo info, final long lastIndex)
    {
        final List<ServerRpcProto> followers = info.getRoleInfoProto().getLeaderInfo().getFollowerInfoList();
        final long[] matched = info.getFollowerMatchIndices();
        if (followers.size() != matched.length)
        {
            return;
        }
        for (int i = 0; i < matched.length; i++)
        {
            final Map<String, String> follower = new HashMap<>(labels);
            follower.put("follower", Integer.toString(ClusterGroups.nodeId(
                RaftPeerId.valueOf(followers.get(i).getId().getId()))));
            samples.add(MetricSample.gauge(prefix + "follower_lag_entries", "On the leader of " + group + ": the " +
                "entries its log holds that the follower's log does not hold yet.", follower,
                Math.max(0, lastIndex - matched[i])));
        }
    }
}
