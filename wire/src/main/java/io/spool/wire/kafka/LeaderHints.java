package io.spool.wire.kafka;

import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ProduceResponseData;

/**
 * Names a partition's current leader in a NOT_LEADER_OR_FOLLOWER answer, where the request's version has the fields
 * for it (KIP-951: Produce v10, Fetch v12, and the leader's address from Fetch v16), so that a client goes to the
 * new leader without a Metadata round first. Stateless.
 */
final class LeaderHints
{
    private static final short PRODUCE_LEADER_VERSION = 10;
    private static final short FETCH_LEADER_VERSION = 12;
    private static final short FETCH_ENDPOINTS_VERSION = 16;

    private LeaderHints()
    {
    }

    static void produce(final PartitionLeaders leaders, final KafkaCluster.Placement placement, final short version,
        final ProduceResponseData.PartitionProduceResponse answer, final ProduceResponseData response)
    {
        if (version < PRODUCE_LEADER_VERSION || placement.leader() < 0)
        {
            return;
        }
        answer.setCurrentLeader(new ProduceResponseData.LeaderIdAndEpoch()
            .setLeaderId(placement.leader()).setLeaderEpoch(placement.leaderEpoch()));
        final KafkaCluster.Broker leader = broker(leaders, placement.leader());
        if (leader != null && response.nodeEndpoints().find(leader.nodeId()) == null)
        {
            response.nodeEndpoints().add(new ProduceResponseData.NodeEndpoint()
                .setNodeId(leader.nodeId()).setHost(leader.host()).setPort(leader.port()));
        }
    }

    static void fetch(final PartitionLeaders leaders, final KafkaCluster.Placement placement, final short version,
        final FetchResponseData.PartitionData answer, final FetchResponseData response)
    {
        if (version < FETCH_LEADER_VERSION || placement.leader() < 0)
        {
            return;
        }
        answer.setCurrentLeader(new FetchResponseData.LeaderIdAndEpoch()
            .setLeaderId(placement.leader()).setLeaderEpoch(placement.leaderEpoch()));
        final KafkaCluster.Broker leader = broker(leaders, placement.leader());
        if (version >= FETCH_ENDPOINTS_VERSION && leader != null && response.nodeEndpoints().find(leader.nodeId()) == null)
        {
            response.nodeEndpoints().add(new FetchResponseData.NodeEndpoint()
                .setNodeId(leader.nodeId()).setHost(leader.host()).setPort(leader.port()));
        }
    }

    private static KafkaCluster.Broker broker(final PartitionLeaders leaders, final int nodeId)
    {
        return leaders.cluster().brokers().stream().filter(broker -> broker.nodeId() == nodeId).findFirst()
            .orElse(null);
    }
}
