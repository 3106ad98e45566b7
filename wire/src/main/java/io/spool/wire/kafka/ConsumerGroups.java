package io.spool.wire.kafka;

import io.spool.api.stream.GroupDescription;
import io.spool.api.stream.MemberAssignment;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownMemberException;
import io.spool.stream.StreamEngine;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatRequestData;
import org.apache.kafka.common.message.ConsumerGroupHeartbeatResponseData;
import org.apache.kafka.common.protocol.Errors;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The consumer group protocol of KIP-848 ({@code group.protocol=consumer}) on Spool's own consumer groups: a
 * ConsumerGroupHeartbeat joins, heartbeats and leaves a member of the Spool group of that id, whose assignor
 * (Spool's sticky one for Kafka's {@code uniform}, range for {@code range}) computes the assignment on the server.
 * A member is given only the partitions no other member still holds; the partitions it stops reporting as owned
 * are released to the members meant to have them. So the group, its members and its lag are the ones Spool's API
 * and CLI show. Thread-safe.
 */
final class ConsumerGroups
{
    private static final int LEAVE_EPOCH = -1;
    private static final int STATIC_LEAVE_EPOCH = -2;

    private final StreamEngine streams;
    private final KafkaListenerConfig config;
    private final TopicIds topicIds;
    /** Kafka's member ids (chosen by the clients) to the members they are in Spool's group. */
    private final Map<String, Map<String, ConsumerMember>> groups = new ConcurrentHashMap<>();

    ConsumerGroups(final StreamEngine streams, final KafkaListenerConfig config, final TopicIds topicIds)
    {
        this.streams = streams;
        this.config = config;
        this.topicIds = topicIds;
    }

    /** One member as the Kafka client knows it. Guarded by the group's member map. */
    static final class ConsumerMember
    {
        final String kafkaId;
        final String spoolId;
        final Set<String> topics;
        final String regex;
        final String clientId;
        final String host;
        int epoch = 1;
        Set<TopicPartition> sent = Set.of();
        /** What the member may still hold: everything it was given and has not reported giving up. */
        Set<TopicPartition> held = Set.of();

        ConsumerMember(final String kafkaId, final String spoolId, final Set<String> topics, final String regex,
            final String clientId, final String host)
        {
            this.kafkaId = kafkaId;
            this.spoolId = spoolId;
            this.topics = topics;
            this.regex = regex;
            this.clientId = clientId;
            this.host = host;
        }
    }

    void heartbeat(final KafkaRequest request)
    {
        final ConsumerGroupHeartbeatRequestData body = request.body();
        final ConsumerGroupHeartbeatResponseData response = new ConsumerGroupHeartbeatResponseData()
            .setMemberId(body.memberId()).setHeartbeatIntervalMs(config.groupHeartbeatIntervalMillis());
        if (body.groupId() == null || body.groupId().isEmpty())
        {
            request.respond(response.setErrorCode(Errors.INVALID_GROUP_ID.code()));
            return;
        }
        final Map<String, ConsumerMember> members = groups.computeIfAbsent(body.groupId(), id -> new ConcurrentHashMap<>());
        synchronized (members)
        {
            try
            {
                heartbeat(body, members, request, response);
            }
            catch (final UnknownMemberException ex)
            {
                members.remove(body.memberId());
                response.setErrorCode(Errors.UNKNOWN_MEMBER_ID.code()).setErrorMessage(ex.getMessage());
            }
            catch (final RuntimeException ex)
            {
                response.setErrorCode(KafkaErrors.of(ex).code()).setErrorMessage(KafkaErrors.message(ex));
            }
        }
        request.respond(response);
    }

    private void heartbeat(final ConsumerGroupHeartbeatRequestData body, final Map<String, ConsumerMember> members,
        final KafkaRequest request, final ConsumerGroupHeartbeatResponseData response)
    {
        final String groupId = body.groupId();
        ConsumerMember member = members.get(body.memberId());
        if (body.memberEpoch() == LEAVE_EPOCH || body.memberEpoch() == STATIC_LEAVE_EPOCH)
        {
            if (member != null)
            {
                members.remove(member.kafkaId);
                streams.groups().leave(groupId, member.spoolId);
            }
            response.setMemberEpoch(body.memberEpoch());
            return;
        }
        if (member == null && body.memberEpoch() != 0)
        {
            response.setErrorCode(Errors.UNKNOWN_MEMBER_ID.code())
                .setErrorMessage("member " + body.memberId() + " is not in group \"" + groupId + "\"; join again");
            return;
        }
        if (member != null && body.memberEpoch() != 0 && body.memberEpoch() != member.epoch &&
            body.memberEpoch() != member.epoch - 1)
        {
            response.setErrorCode(Errors.FENCED_MEMBER_EPOCH.code()).setErrorMessage("member " + member.kafkaId +
                " sent epoch " + body.memberEpoch() + ", its epoch is " + member.epoch);
            return;
        }
        final Set<String> topics = subscription(body, member);
        if (member == null || body.memberEpoch() == 0 || !topics.equals(member.topics))
        {
            if (member != null)
            {
                streams.groups().leave(groupId, member.spoolId);
            }
            if (topics.isEmpty())
            {
                members.remove(body.memberId());
                response.setErrorCode(Errors.INVALID_REQUEST.code())
                    .setErrorMessage("a member must subscribe to at least one existing topic");
                return;
            }
            final String spoolId = streams.groups().join(groupId, topics, assignor(body.serverAssignor()),
                config.groupSessionTimeoutMillis());
            final String regex = body.subscribedTopicRegex() != null ? body.subscribedTopicRegex() :
                member == null ? null : member.regex;
            member = new ConsumerMember(body.memberId(), spoolId, topics, regex, request.clientId(),
                request.connection().remoteHost());
            members.put(member.kafkaId, member);
        }
        if (body.topicPartitions() != null)
        {
            releaseUnowned(groupId, member, body.topicPartitions());
        }
        final MemberAssignment assignment = streams.groups().heartbeat(groupId, member.spoolId);
        if (!assignment.partitions().equals(member.sent) || body.memberEpoch() == 0)
        {
            if (!assignment.partitions().equals(member.sent))
            {
                member.epoch++;
            }
            member.sent = assignment.partitions();
            final Set<TopicPartition> held = new HashSet<>(member.held);
            held.addAll(member.sent);
            member.held = held;
            response.setAssignment(assignmentOf(member.sent));
        }
        response.setMemberId(member.kafkaId).setMemberEpoch(member.epoch);
    }

    /** The topics a member subscribes to: its names, or the existing topics its regular expression matches. */
    private Set<String> subscription(final ConsumerGroupHeartbeatRequestData body, final ConsumerMember member)
    {
        final String regex = body.subscribedTopicRegex() != null ? body.subscribedTopicRegex() :
            body.subscribedTopicNames() == null && member != null ? member.regex : null;
        if (regex != null)
        {
            final Pattern pattern;
            try
            {
                pattern = Pattern.compile(regex);
            }
            catch (final PatternSyntaxException ex)
            {
                throw Errors.INVALID_REGULAR_EXPRESSION.exception(ex.getMessage());
            }
            final Set<String> matched = new TreeSet<>();
            streams.listTopics().stream().filter(topic -> pattern.matcher(topic).matches()).forEach(matched::add);
            return matched;
        }
        if (body.subscribedTopicNames() == null)
        {
            return member == null ? Set.of() : member.topics;
        }
        return new TreeSet<>(body.subscribedTopicNames());
    }

    private void releaseUnowned(final String groupId, final ConsumerMember member,
        final List<ConsumerGroupHeartbeatRequestData.TopicPartitions> owned)
    {
        final Set<TopicPartition> stillOwned = new HashSet<>();
        for (final ConsumerGroupHeartbeatRequestData.TopicPartitions topic : owned)
        {
            final String name = topicIds.nameOf(topic.topicId());
            if (name != null)
            {
                topic.partitions().forEach(p -> stillOwned.add(new TopicPartition(name, p)));
            }
        }
        final List<TopicPartition> released = new ArrayList<>();
        for (final TopicPartition partition : member.held)
        {
            if (!stillOwned.contains(partition))
            {
                released.add(partition);
            }
        }
        member.held = stillOwned;
        if (!released.isEmpty())
        {
            streams.groups().release(groupId, member.spoolId, released);
        }
    }

    private ConsumerGroupHeartbeatResponseData.Assignment assignmentOf(final Set<TopicPartition> partitions)
    {
        final Map<String, List<Integer>> byTopic = new TreeMap<>();
        partitions.forEach(p -> byTopic.computeIfAbsent(p.topic(), t -> new ArrayList<>()).add(p.partition()));
        final ConsumerGroupHeartbeatResponseData.Assignment assignment = new ConsumerGroupHeartbeatResponseData.Assignment();
        byTopic.forEach((topic, list) -> assignment.topicPartitions().add(
            new ConsumerGroupHeartbeatResponseData.TopicPartitions().setTopicId(topicIds.idOf(topic))
                .setPartitions(list.stream().sorted().toList())));
        return assignment;
    }

    /** Kafka's server-side assignor names to Spool's assignors. */
    static String assignor(final String kafkaName)
    {
        if (kafkaName == null || kafkaName.equals("uniform"))
        {
            return "sticky";
        }
        if (kafkaName.equals("range"))
        {
            return "range";
        }
        throw Errors.UNSUPPORTED_ASSIGNOR.exception("assignor \"" + kafkaName +
            "\" is not available; Spool's listener offers uniform and range");
    }

    /** True when the group is one of Spool's consumer groups with live members (joined here or through Spool). */
    boolean isConsumerGroup(final String groupId)
    {
        final Map<String, ConsumerMember> members = groups.get(groupId);
        return (members != null && !members.isEmpty()) || streams.groups().describe(groupId) != null;
    }

    Errors checkCommit(final String groupId, final String memberId, final int epoch)
    {
        final ConsumerMember member = member(groupId, memberId);
        if (member == null)
        {
            return epoch < 0 && (memberId == null || memberId.isEmpty()) ? Errors.NONE : Errors.UNKNOWN_MEMBER_ID;
        }
        return epoch > member.epoch ? Errors.STALE_MEMBER_EPOCH : Errors.NONE;
    }

    /** Commits for a member, refused for a partition it does not hold. */
    Errors commit(final String groupId, final String memberId, final Map<TopicPartition, Long> offsets)
    {
        final ConsumerMember member = member(groupId, memberId);
        try
        {
            if (member == null)
            {
                streams.groups().commitStandalone(groupId, offsets);
            }
            else
            {
                streams.groups().commit(groupId, member.spoolId, offsets);
            }
            return Errors.NONE;
        }
        catch (final io.spool.api.stream.CommitFailedException ex)
        {
            return Errors.STALE_MEMBER_EPOCH;
        }
        catch (final RuntimeException ex)
        {
            return KafkaErrors.of(ex);
        }
    }

    private ConsumerMember member(final String groupId, final String memberId)
    {
        final Map<String, ConsumerMember> members = groups.get(groupId);
        return members == null || memberId == null ? null : members.get(memberId);
    }

    /** The Kafka side of a group's members, by Spool member id, for describing it. */
    Map<String, ConsumerMember> membersBySpoolId(final String groupId)
    {
        final Map<String, ConsumerMember> bySpoolId = new TreeMap<>();
        final Map<String, ConsumerMember> members = groups.get(groupId);
        if (members != null)
        {
            synchronized (members)
            {
                members.values().forEach(member -> bySpoolId.put(member.spoolId, member));
            }
        }
        return bySpoolId;
    }

    /** Forgets members whose Spool session expired (their next heartbeat is told to join again anyway). */
    void sweep()
    {
        streams.groups().expireSessions();
        for (final Map.Entry<String, Map<String, ConsumerMember>> group : groups.entrySet())
        {
            final Map<String, ConsumerMember> members = group.getValue();
            synchronized (members)
            {
                if (members.isEmpty())
                {
                    continue;
                }
                final GroupDescription description = streams.groups().describe(group.getKey());
                final Set<String> live = description == null ? Set.of() : description.members();
                members.values().removeIf(member -> !live.contains(member.spoolId));
            }
        }
    }
}
