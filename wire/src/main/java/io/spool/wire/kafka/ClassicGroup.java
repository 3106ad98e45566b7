package io.spool.wire.kafka;

import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One group of Kafka's classic protocol: members join, the coordinator waits until every known member has
 * (re)joined or the rebalance timeout passed, picks a protocol every member supports and a leader, the leader
 * computes the assignment in its client and hands it over in SyncGroup. Guarded by its own monitor, which
 * {@link ClassicGroups} holds around every call.
 */
final class ClassicGroup
{
    enum State
    {
        EMPTY("Empty"), PREPARING_REBALANCE("PreparingRebalance"), COMPLETING_REBALANCE("CompletingRebalance"),
        STABLE("Stable");

        final String kafkaName;

        State(final String kafkaName)
        {
            this.kafkaName = kafkaName;
        }
    }

    /** One member: its subscription per protocol, its assignment, and the requests it waits in. */
    static final class Member
    {
        final String id;
        final String instanceId;
        final String clientId;
        final String host;
        int sessionTimeoutMillis;
        int rebalanceTimeoutMillis;
        final Map<String, byte[]> protocols = new LinkedHashMap<>();
        byte[] assignment = new byte[0];
        KafkaRequest pendingJoin;
        KafkaRequest pendingSync;
        long lastHeartbeatMillis;

        Member(final String id, final String instanceId, final String clientId, final String host)
        {
            this.id = id;
            this.instanceId = instanceId;
            this.clientId = clientId;
            this.host = host;
        }

        byte[] metadata(final String protocol)
        {
            final byte[] metadata = protocols.get(protocol);
            return metadata == null ? new byte[0] : metadata;
        }
    }

    final String id;
    State state = State.EMPTY;
    int generation;
    String protocolType;
    String protocolName;
    String leaderId;
    final Map<String, Member> members = new LinkedHashMap<>();
    /** When the rebalance in progress completes even though some members have not rejoined. */
    long rebalanceDeadlineMillis;

    ClassicGroup(final String id)
    {
        this.id = id;
    }

    boolean supportsAll(final JoinGroupRequestData.JoinGroupRequestProtocolCollection protocols)
    {
        if (members.isEmpty())
        {
            return true;
        }
        for (final JoinGroupRequestData.JoinGroupRequestProtocol protocol : protocols)
        {
            if (members.values().stream().allMatch(member -> member.protocols.containsKey(protocol.name())))
            {
                return true;
            }
        }
        return false;
    }

    /** Starts a rebalance: members waiting in SyncGroup are told to join again. */
    void prepareRebalance(final long nowMillis, final int delayMillis)
    {
        if (state == State.COMPLETING_REBALANCE)
        {
            for (final Member member : members.values())
            {
                if (member.pendingSync != null)
                {
                    member.pendingSync.respond(new SyncGroupResponseData()
                        .setErrorCode(Errors.REBALANCE_IN_PROGRESS.code()));
                    member.pendingSync = null;
                }
            }
        }
        if (state != State.PREPARING_REBALANCE)
        {
            int rebalanceTimeout = 0;
            for (final Member member : members.values())
            {
                rebalanceTimeout = Math.max(rebalanceTimeout, member.rebalanceTimeoutMillis);
            }
            final boolean initial = state == State.EMPTY;
            state = State.PREPARING_REBALANCE;
            rebalanceDeadlineMillis = nowMillis + (initial ? delayMillis : rebalanceTimeout);
        }
    }

    /** True when every member has rejoined (and an empty group's first wait is over). */
    boolean everyoneJoined(final long nowMillis, final boolean initialDelayRunning)
    {
        if (initialDelayRunning && nowMillis < rebalanceDeadlineMillis)
        {
            return false;
        }
        return members.values().stream().allMatch(member -> member.pendingJoin != null);
    }

    /** Ends the join phase: members that did not rejoin are dropped, the rest get the new generation. */
    void completeJoin()
    {
        members.values().removeIf(member -> member.pendingJoin == null);
        generation++;
        if (members.isEmpty())
        {
            state = State.EMPTY;
            protocolName = null;
            leaderId = null;
            return;
        }
        state = State.COMPLETING_REBALANCE;
        protocolName = selectProtocol();
        if (leaderId == null || !members.containsKey(leaderId))
        {
            leaderId = members.keySet().iterator().next();
        }
        for (final Member member : members.values())
        {
            final JoinGroupResponseData response = new JoinGroupResponseData()
                .setGenerationId(generation).setProtocolType(protocolType).setProtocolName(protocolName)
                .setLeader(leaderId).setMemberId(member.id);
            if (member.id.equals(leaderId))
            {
                final List<JoinGroupResponseData.JoinGroupResponseMember> all = new ArrayList<>();
                for (final Member each : members.values())
                {
                    all.add(new JoinGroupResponseData.JoinGroupResponseMember().setMemberId(each.id)
                        .setGroupInstanceId(each.instanceId).setMetadata(each.metadata(protocolName)));
                }
                response.setMembers(all);
            }
            member.pendingJoin.respond(response);
            member.pendingJoin = null;
            member.assignment = new byte[0];
        }
    }

    /** The leader's first protocol that every member supports (clients list theirs in order of preference). */
    private String selectProtocol()
    {
        final Member leader = members.containsKey(leaderId) ? members.get(leaderId) : members.values().iterator().next();
        for (final String protocol : leader.protocols.keySet())
        {
            if (members.values().stream().allMatch(member -> member.protocols.containsKey(protocol)))
            {
                return protocol;
            }
        }
        return leader.protocols.keySet().iterator().next();
    }

    /** Removes a member; one waiting in a request is told it is no longer known. */
    void remove(final String memberId)
    {
        final Member member = members.remove(memberId);
        if (member == null)
        {
            return;
        }
        if (member.pendingJoin != null)
        {
            member.pendingJoin.respond(new JoinGroupResponseData().setMemberId(memberId)
                .setErrorCode(Errors.UNKNOWN_MEMBER_ID.code()));
        }
        if (member.pendingSync != null)
        {
            member.pendingSync.respond(new SyncGroupResponseData().setErrorCode(Errors.UNKNOWN_MEMBER_ID.code()));
        }
    }
}
