package io.spool.wire.kafka;

import io.spool.stream.StreamEngine;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.HeartbeatResponseData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.message.LeaveGroupResponseData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.Errors;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The coordinator of Kafka's classic group protocol (JoinGroup, SyncGroup, Heartbeat, LeaveGroup): membership,
 * generations and rebalances here, the assignment itself in the leader's client (so every client-side assignor
 * works, the cooperative sticky one too). Sessions and rebalance deadlines are measured on the engine's clock and
 * looked at by {@link #sweep()}. Offsets the members commit are Spool's committed offsets. Thread-safe: each
 * group's state is guarded by the group.
 */
final class ClassicGroups
{
    private final StreamEngine streams;
    private final KafkaListenerConfig config;
    private final Map<String, ClassicGroup> groups = new ConcurrentHashMap<>();

    ClassicGroups(final StreamEngine streams, final KafkaListenerConfig config)
    {
        this.streams = streams;
        this.config = config;
    }

    void join(final KafkaRequest request)
    {
        final JoinGroupRequestData body = request.body();
        final JoinGroupResponseData refusal = new JoinGroupResponseData().setMemberId(body.memberId());
        if (body.groupId() == null || body.groupId().isEmpty())
        {
            request.respond(refusal.setErrorCode(Errors.INVALID_GROUP_ID.code()));
            return;
        }
        if (body.sessionTimeoutMs() < config.minSessionTimeoutMillis() ||
            body.sessionTimeoutMs() > config.maxSessionTimeoutMillis())
        {
            request.respond(refusal.setErrorCode(Errors.INVALID_SESSION_TIMEOUT.code()));
            return;
        }
        if (streams.groups().describe(body.groupId()) != null)
        {
            // A group of the consumer protocol (KIP-848) or of Spool's own consumers already has this id.
            request.respond(refusal.setErrorCode(Errors.INCONSISTENT_GROUP_PROTOCOL.code()));
            return;
        }
        withGroup(body.groupId(), true, group ->
        {
            join(group, body, request, refusal);
            return Errors.NONE;
        });
    }

    private void join(final ClassicGroup group, final JoinGroupRequestData body, final KafkaRequest request,
        final JoinGroupResponseData refusal)
    {
        if (!group.members.isEmpty() &&
            (!body.protocolType().equals(group.protocolType) || !group.supportsAll(body.protocols())))
        {
            request.respond(refusal.setErrorCode(Errors.INCONSISTENT_GROUP_PROTOCOL.code()));
            return;
        }
        final ClassicGroup.Member member;
        if (body.memberId().isEmpty())
        {
            member = new ClassicGroup.Member(request.clientId() + "-" + UUID.randomUUID(), body.groupInstanceId(),
                request.clientId(), request.connection().remoteHost());
            group.members.put(member.id, member);
        }
        else
        {
            member = group.members.get(body.memberId());
            if (member == null)
            {
                request.respond(refusal.setErrorCode(Errors.UNKNOWN_MEMBER_ID.code()));
                return;
            }
        }
        if (group.members.size() == 1)
        {
            group.protocolType = body.protocolType();
        }
        member.sessionTimeoutMillis = body.sessionTimeoutMs();
        member.rebalanceTimeoutMillis = request.version() == 0 ? body.sessionTimeoutMs() : body.rebalanceTimeoutMs();
        member.protocols.clear();
        body.protocols().forEach(protocol -> member.protocols.put(protocol.name(), protocol.metadata()));
        final long now = streams.clock().time();
        member.lastHeartbeatMillis = now;
        if (member.pendingJoin != null)
        {
            member.pendingJoin.respond(new JoinGroupResponseData().setMemberId(member.id)
                .setErrorCode(Errors.REBALANCE_IN_PROGRESS.code()));
        }
        member.pendingJoin = request;
        group.prepareRebalance(now, config.initialRebalanceDelayMillis());
        tryCompleteJoin(group, now);
    }

    private void tryCompleteJoin(final ClassicGroup group, final long now)
    {
        if (group.state == ClassicGroup.State.PREPARING_REBALANCE &&
            (group.everyoneJoined(now, group.generation == 0 || group.protocolName == null) ||
                now >= group.rebalanceDeadlineMillis))
        {
            group.completeJoin();
        }
    }

    void sync(final KafkaRequest request)
    {
        final SyncGroupRequestData body = request.body();
        final Errors refused = withGroup(body.groupId(), false, group ->
        {
            final ClassicGroup.Member member = group.members.get(body.memberId());
            if (member == null)
            {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            if (body.generationId() != group.generation)
            {
                return Errors.ILLEGAL_GENERATION;
            }
            if ((body.protocolType() != null && !body.protocolType().equals(group.protocolType)) ||
                (body.protocolName() != null && !body.protocolName().equals(group.protocolName)))
            {
                return Errors.INCONSISTENT_GROUP_PROTOCOL;
            }
            member.lastHeartbeatMillis = streams.clock().time();
            switch (group.state)
            {
                case PREPARING_REBALANCE, EMPTY ->
                {
                    return Errors.REBALANCE_IN_PROGRESS;
                }
                case STABLE -> request.respond(synced(group, member));
                case COMPLETING_REBALANCE ->
                {
                    member.pendingSync = request;
                    if (member.id.equals(group.leaderId))
                    {
                        for (final SyncGroupRequestData.SyncGroupRequestAssignment assignment : body.assignments())
                        {
                            final ClassicGroup.Member assigned = group.members.get(assignment.memberId());
                            if (assigned != null)
                            {
                                assigned.assignment = assignment.assignment();
                            }
                        }
                        group.state = ClassicGroup.State.STABLE;
                        for (final ClassicGroup.Member each : group.members.values())
                        {
                            if (each.pendingSync != null)
                            {
                                each.pendingSync.respond(synced(group, each));
                                each.pendingSync = null;
                            }
                        }
                    }
                }
            }
            return Errors.NONE;
        });
        if (refused != Errors.NONE)
        {
            request.respond(new SyncGroupResponseData().setErrorCode(refused.code()));
        }
    }

    private static SyncGroupResponseData synced(final ClassicGroup group, final ClassicGroup.Member member)
    {
        return new SyncGroupResponseData().setProtocolType(group.protocolType).setProtocolName(group.protocolName)
            .setAssignment(member.assignment);
    }

    void heartbeat(final KafkaRequest request)
    {
        final HeartbeatRequestData body = request.body();
        final Errors error = withGroup(body.groupId(), false, group ->
        {
            final ClassicGroup.Member member = group.members.get(body.memberId());
            if (member == null)
            {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            member.lastHeartbeatMillis = streams.clock().time();
            if (body.generationId() != group.generation)
            {
                return Errors.ILLEGAL_GENERATION;
            }
            return group.state == ClassicGroup.State.PREPARING_REBALANCE ? Errors.REBALANCE_IN_PROGRESS : Errors.NONE;
        });
        request.respond(new HeartbeatResponseData().setErrorCode(error.code()));
    }

    void leave(final KafkaRequest request)
    {
        final LeaveGroupRequestData body = request.body();
        final List<LeaveGroupRequestData.MemberIdentity> leaving = request.version() < 3 ?
            List.of(new LeaveGroupRequestData.MemberIdentity().setMemberId(body.memberId())) : body.members();
        final LeaveGroupResponseData response = new LeaveGroupResponseData();
        final Errors error = withGroup(body.groupId(), false, group ->
        {
            final List<LeaveGroupResponseData.MemberResponse> answers = new ArrayList<>();
            boolean anyLeft = false;
            for (final LeaveGroupRequestData.MemberIdentity identity : leaving)
            {
                final boolean known = group.members.containsKey(identity.memberId());
                answers.add(new LeaveGroupResponseData.MemberResponse().setMemberId(identity.memberId())
                    .setGroupInstanceId(identity.groupInstanceId())
                    .setErrorCode((known ? Errors.NONE : Errors.UNKNOWN_MEMBER_ID).code()));
                if (known)
                {
                    group.remove(identity.memberId());
                    anyLeft = true;
                }
            }
            if (anyLeft)
            {
                membersGone(group, streams.clock().time());
            }
            if (request.version() >= 3)
            {
                response.setMembers(answers);
                return Errors.NONE;
            }
            return answers.get(0).errorCode() == Errors.NONE.code() ? Errors.NONE : Errors.UNKNOWN_MEMBER_ID;
        });
        request.respond(response.setErrorCode(error.code()));
    }

    /** After members were removed: the others rebalance, or the group is empty now. */
    private void membersGone(final ClassicGroup group, final long now)
    {
        if (group.members.isEmpty() && group.state != ClassicGroup.State.PREPARING_REBALANCE)
        {
            group.state = ClassicGroup.State.EMPTY;
            group.generation++;
            group.protocolName = null;
            group.leaderId = null;
            return;
        }
        group.prepareRebalance(now, 0);
        tryCompleteJoin(group, now);
    }

    /** Expires members whose session ran out and completes rebalances whose deadline passed. */
    void sweep()
    {
        for (final ClassicGroup group : groups.values())
        {
            synchronized (group)
            {
                final long now = streams.clock().time();
                final List<String> expired = new ArrayList<>();
                for (final ClassicGroup.Member member : group.members.values())
                {
                    if (member.pendingJoin == null && now - member.lastHeartbeatMillis > member.sessionTimeoutMillis)
                    {
                        expired.add(member.id);
                    }
                }
                expired.forEach(group::remove);
                if (!expired.isEmpty())
                {
                    membersGone(group, now);
                }
                tryCompleteJoin(group, now);
                if (group.state == ClassicGroup.State.EMPTY && group.members.isEmpty())
                {
                    groups.remove(group.id, group);
                }
            }
        }
    }

    /**
     * Forgets every group, as a node that no longer coordinates them must: the clients join the new coordinator,
     * and one that comes back here later finds no stale members. Members waiting in a request are told they are
     * unknown.
     */
    void forgetAll()
    {
        for (final ClassicGroup group : groups.values())
        {
            synchronized (group)
            {
                List.copyOf(group.members.keySet()).forEach(group::remove);
                groups.remove(group.id, group);
            }
        }
    }

    /** Forgets a group that has no members, as its deletion does. */
    void forgetEmpty(final String groupId)
    {
        final ClassicGroup group = groups.get(groupId);
        if (group != null)
        {
            synchronized (group)
            {
                if (group.members.isEmpty())
                {
                    groups.remove(groupId, group);
                }
            }
        }
    }

    /**
     * Whether a commit with this generation and member may go through: a member of the current generation (not in
     * the middle of handing out assignments), or a consumer without a group generation while the group is empty.
     */
    Errors checkCommit(final String groupId, final int generation, final String memberId)
    {
        final ClassicGroup group = groups.get(groupId);
        if (group == null)
        {
            return generation < 0 ? Errors.NONE : Errors.ILLEGAL_GENERATION;
        }
        synchronized (group)
        {
            if (group.members.isEmpty())
            {
                return generation < 0 ? Errors.NONE : Errors.ILLEGAL_GENERATION;
            }
            if (!group.members.containsKey(memberId))
            {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            if (generation != group.generation)
            {
                return Errors.ILLEGAL_GENERATION;
            }
            return group.state == ClassicGroup.State.COMPLETING_REBALANCE ? Errors.REBALANCE_IN_PROGRESS : Errors.NONE;
        }
    }

    /** A copy of a group's state for describing it; null when there is no such group with members. */
    ClassicGroupView view(final String groupId)
    {
        final ClassicGroup group = groups.get(groupId);
        if (group == null)
        {
            return null;
        }
        synchronized (group)
        {
            return group.members.isEmpty() ? null : ClassicGroupView.of(group);
        }
    }

    List<ClassicGroupView> views()
    {
        final List<ClassicGroupView> all = new ArrayList<>();
        for (final String id : groups.keySet())
        {
            final ClassicGroupView view = view(id);
            if (view != null)
            {
                all.add(view);
            }
        }
        return all;
    }

    /** Runs {@code action} under the group's lock; without the group (and {@code create}), UNKNOWN_MEMBER_ID. */
    private Errors withGroup(final String groupId, final boolean create, final Function<ClassicGroup, Errors> action)
    {
        while (true)
        {
            final ClassicGroup group = create ? groups.computeIfAbsent(groupId, ClassicGroup::new) : groups.get(groupId);
            if (group == null)
            {
                return Errors.UNKNOWN_MEMBER_ID;
            }
            synchronized (group)
            {
                if (groups.get(groupId) != group)
                {
                    continue;
                }
                return action.apply(group);
            }
        }
    }
}
