package io.spool.wire.kafka;

import io.spool.Spool;
import io.spool.stream.Topic;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.ShareAcknowledgeRequestData;
import org.apache.kafka.common.message.ShareAcknowledgeResponseData;
import org.apache.kafka.common.message.ShareFetchRequestData;
import org.apache.kafka.common.message.ShareFetchResponseData;
import org.apache.kafka.common.message.ShareGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ShareGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.Errors;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Share groups (KIP-932) on Spool subscriptions: the share group named G reading topic T is the Spool subscription
 * named G on T, created with Kafka's defaults (or the group's configured settings) when its first member joins, or
 * made beforehand through Spool's API with any of Spool's settings (delays, retry ladders, message groups, TTL,
 * dedup). Every member is assigned every partition of the topic; a ShareFetch receives from the subscription and
 * hands out the deliveries as acquired records with their delivery counts; acknowledgements (accept, release,
 * reject, renew) settle those deliveries. A member that leaves, whose session times out or whose connection closes
 * has its acquired records released at once, to be delivered again. This class keeps the groups and their members
 * and answers heartbeats; {@link ShareFetches}, {@link ShareAcknowledgements} and {@link ShareSessions} answer the
 * rest for the members it knows. Thread-safe.
 */
final class ShareGroups
{
    private static final int JOIN_EPOCH = 0;
    private static final int LEAVE_EPOCH = -1;

    private final Spool engine;
    private final KafkaListenerConfig config;
    private final TopicIds topicIds;
    private final Map<String, ShareGroup> groups = new ConcurrentHashMap<>();
    private final ShareSubscriptions subscriptions;
    private final ShareSessions sessions;
    private final ShareAcknowledgements acknowledgements;
    private final ShareFetches fetches;

    ShareGroups(final Spool engine, final KafkaListenerConfig config, final TopicIds topicIds)
    {
        this.engine = engine;
        this.config = config;
        this.topicIds = topicIds;
        this.subscriptions = new ShareSubscriptions(engine);
        this.sessions = new ShareSessions(subscriptions);
        this.acknowledgements = new ShareAcknowledgements(subscriptions, sessions);
        this.fetches = new ShareFetches(subscriptions, sessions, acknowledgements, topicIds);
    }

    /** One share group's members, by the ids their clients chose. Guarded by itself. */
    static final class ShareGroup
    {
        final String id;
        final Map<String, ShareMember> members = new HashMap<>();
        int epoch;

        ShareGroup(final String id)
        {
            this.id = id;
        }
    }

    static final class ShareMember
    {
        final String id;
        final String clientId;
        final String host;
        final String topic;
        int epoch = 1;
        int assignedPartitions = -1;
        long lastHeartbeatMillis;

        ShareMember(final String id, final String clientId, final String host, final String topic)
        {
            this.id = id;
            this.clientId = clientId;
            this.host = host;
            this.topic = topic;
        }
    }

    void heartbeat(final KafkaRequest request)
    {
        final ShareGroupHeartbeatRequestData body = request.body();
        final ShareGroupHeartbeatResponseData response = new ShareGroupHeartbeatResponseData()
            .setMemberId(body.memberId()).setHeartbeatIntervalMs(config.groupHeartbeatIntervalMillis());
        if (body.groupId() == null || body.groupId().isEmpty())
        {
            request.respond(response.setErrorCode(Errors.INVALID_GROUP_ID.code()));
            return;
        }
        final ShareGroup group = groups.computeIfAbsent(body.groupId(), ShareGroup::new);
        synchronized (group)
        {
            ShareMember member = group.members.get(body.memberId());
            if (body.memberEpoch() == LEAVE_EPOCH)
            {
                if (member != null)
                {
                    group.members.remove(member.id);
                    sessions.closeSessionOf(group.id, member.id);
                }
                request.respond(response.setMemberEpoch(LEAVE_EPOCH));
                return;
            }
            if (member == null && body.memberEpoch() != JOIN_EPOCH)
            {
                request.respond(response.setErrorCode(Errors.UNKNOWN_MEMBER_ID.code()));
                return;
            }
            if (member == null)
            {
                final List<String> topics = body.subscribedTopicNames();
                if (topics == null || topics.size() != 1)
                {
                    request.respond(response.setErrorCode(Errors.INVALID_REQUEST.code()).setErrorMessage(
                        "a share group is one Spool subscription, which reads one topic; subscribe to exactly one"));
                    return;
                }
                final String problem = subscriptions.problemReading(group.id, topics.get(0));
                if (problem != null)
                {
                    request.respond(response.setErrorCode(Errors.INVALID_REQUEST.code()).setErrorMessage(problem));
                    return;
                }
                member = new ShareMember(body.memberId(), request.clientId(), request.connection().remoteHost(),
                    topics.get(0));
                group.members.put(member.id, member);
                group.epoch++;
            }
            member.lastHeartbeatMillis = engine.streams().clock().time();
            final Topic topic = engine.streams().topics().topicOrNull(member.topic);
            final int partitions = topic == null ? 0 : topic.partitionCount();
            if (topic != null)
            {
                subscriptions.ensure(group.id, member.topic);
            }
            if (partitions != member.assignedPartitions || body.memberEpoch() == JOIN_EPOCH)
            {
                if (partitions != member.assignedPartitions && member.assignedPartitions >= 0)
                {
                    member.epoch++;
                }
                member.assignedPartitions = partitions;
                final ShareGroupHeartbeatResponseData.Assignment assignment =
                    new ShareGroupHeartbeatResponseData.Assignment();
                if (partitions > 0)
                {
                    final List<Integer> all = new ArrayList<>();
                    for (int p = 0; p < partitions; p++)
                    {
                        all.add(p);
                    }
                    assignment.topicPartitions().add(new ShareGroupHeartbeatResponseData.TopicPartitions()
                        .setTopicId(topicIds.idOf(member.topic)).setPartitions(all));
                }
                response.setAssignment(assignment);
            }
            request.respond(response.setMemberEpoch(member.epoch));
        }
    }

    /** Answers a ShareFetch; a member the group does not know gets UNKNOWN_MEMBER_ID. */
    void fetch(final KafkaRequest request)
    {
        final ShareFetchRequestData body = request.body();
        final ShareMember member = member(body.groupId(), body.memberId());
        if (member == null)
        {
            request.respond(new ShareFetchResponseData().setErrorCode(Errors.UNKNOWN_MEMBER_ID.code()));
            return;
        }
        fetches.fetch(request, member.topic);
    }

    /** Answers a ShareAcknowledge; a member the group does not know gets UNKNOWN_MEMBER_ID. */
    void acknowledge(final KafkaRequest request)
    {
        final ShareAcknowledgeRequestData body = request.body();
        if (member(body.groupId(), body.memberId()) == null)
        {
            request.respond(new ShareAcknowledgeResponseData().setErrorCode(Errors.UNKNOWN_MEMBER_ID.code()));
            return;
        }
        acknowledgements.acknowledge(request);
    }

    private ShareMember member(final String groupId, final String memberId)
    {
        final ShareGroup group = groups.get(groupId);
        if (group == null)
        {
            return null;
        }
        synchronized (group)
        {
            return group.members.get(memberId);
        }
    }

    void connectionClosed(final KafkaConnection connection)
    {
        sessions.connectionClosed(connection);
    }

    /** Removes members whose session timed out, releasing what they had acquired. */
    void sweep()
    {
        final long now = engine.streams().clock().time();
        for (final ShareGroup group : groups.values())
        {
            synchronized (group)
            {
                final List<String> expired = new ArrayList<>();
                group.members.values().forEach(member ->
                {
                    if (now - member.lastHeartbeatMillis > config.groupSessionTimeoutMillis())
                    {
                        expired.add(member.id);
                    }
                });
                for (final String memberId : expired)
                {
                    group.members.remove(memberId);
                    sessions.closeSessionOf(group.id, memberId);
                    group.epoch++;
                }
            }
        }
    }

    Map<String, String> describeSettings(final String group)
    {
        return subscriptions.describeSettings(group);
    }

    void alterSettings(final String group, final Map<String, String> changes)
    {
        subscriptions.alterSettings(group, changes);
    }

    /** Copies of the groups' members, for describing them. */
    List<ShareGroupView> views()
    {
        final List<ShareGroupView> all = new ArrayList<>();
        for (final String id : groups.keySet())
        {
            final ShareGroupView view = view(id);
            if (view != null)
            {
                all.add(view);
            }
        }
        return all;
    }

    ShareGroupView view(final String id)
    {
        final ShareGroup group = groups.get(id);
        if (group == null)
        {
            return null;
        }
        synchronized (group)
        {
            return new ShareGroupView(group.id, group.epoch, group.members.values().stream().map(member ->
                new ShareGroupView.MemberView(member.id, member.clientId, member.host, member.topic,
                    topicIds.idOf(member.topic), member.epoch, Math.max(0, member.assignedPartitions))).toList());
        }
    }

    void close()
    {
        fetches.close();
    }

    record ShareGroupView(String groupId, int epoch, List<MemberView> members)
    {
        record MemberView(String memberId, String clientId, String host, String topic, Uuid topicId, int epoch,
            int partitions)
        {
        }
    }
}
