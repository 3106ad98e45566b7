package io.spool.wire.kafka;

import io.spool.Spool;
import io.spool.api.stream.GroupDescription;
import io.spool.api.stream.TopicPartition;
import org.apache.kafka.common.message.ConsumerGroupDescribeRequestData;
import org.apache.kafka.common.message.ConsumerGroupDescribeResponseData;
import org.apache.kafka.common.message.DeleteGroupsRequestData;
import org.apache.kafka.common.message.DeleteGroupsResponseData;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.message.ShareGroupDescribeRequestData;
import org.apache.kafka.common.message.ShareGroupDescribeResponseData;
import org.apache.kafka.common.protocol.Errors;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * ListGroups, DescribeGroups, ConsumerGroupDescribe, ShareGroupDescribe and DeleteGroups over the three kinds of
 * group the listener knows: classic groups, Spool's consumer groups (joined through KIP-848 or Spool's own API),
 * and share groups (Spool subscriptions). A group that only has committed offsets is listed as an empty classic
 * group, as Kafka lists it. Thread-safe.
 */
final class GroupAdminApis
{
    private static final String CLASSIC = "classic";
    private static final String CONSUMER = "consumer";
    private static final String SHARE = "share";

    private final Spool engine;
    private final ClassicGroups classicGroups;
    private final ConsumerGroups consumerGroups;
    private final ShareGroups shareGroups;
    private final TopicIds topicIds;

    GroupAdminApis(final Spool engine, final TopicIds topicIds, final ClassicGroups classicGroups,
        final ConsumerGroups consumerGroups, final ShareGroups shareGroups)
    {
        this.engine = engine;
        this.topicIds = topicIds;
        this.classicGroups = classicGroups;
        this.consumerGroups = consumerGroups;
        this.shareGroups = shareGroups;
    }

    void list(final KafkaRequest request)
    {
        final ListGroupsRequestData body = request.body();
        final Map<String, ListGroupsResponseData.ListedGroup> listed = new TreeMap<>();
        for (final String groupId : engine.streams().groups().groupIds())
        {
            final boolean live = engine.streams().groups().describe(groupId) != null;
            listed.put(groupId, new ListGroupsResponseData.ListedGroup().setGroupId(groupId).setProtocolType("consumer")
                .setGroupState(live ? "Stable" : "Empty").setGroupType(live ? CONSUMER : CLASSIC));
        }
        for (final ClassicGroupView group : classicGroups.views())
        {
            listed.put(group.groupId(), new ListGroupsResponseData.ListedGroup().setGroupId(group.groupId())
                .setProtocolType(group.protocolType()).setGroupState(group.state()).setGroupType(CLASSIC));
        }
        for (final ShareGroups.ShareGroupView group : shareGroups.views())
        {
            listed.put(group.groupId(), new ListGroupsResponseData.ListedGroup().setGroupId(group.groupId())
                .setProtocolType(SHARE).setGroupState(group.members().isEmpty() ? "Empty" : "Stable")
                .setGroupType(SHARE));
        }
        final ListGroupsResponseData response = new ListGroupsResponseData();
        for (final ListGroupsResponseData.ListedGroup group : listed.values())
        {
            if (matches(body.statesFilter(), group.groupState()) && matches(body.typesFilter(), group.groupType()))
            {
                response.groups().add(group);
            }
        }
        request.respond(response);
    }

    private static boolean matches(final List<String> filter, final String value)
    {
        return filter == null || filter.isEmpty() || filter.stream().anyMatch(wanted -> wanted.equalsIgnoreCase(value));
    }

    void describe(final KafkaRequest request)
    {
        final DescribeGroupsRequestData body = request.body();
        final DescribeGroupsResponseData response = new DescribeGroupsResponseData();
        for (final String groupId : body.groups())
        {
            final DescribeGroupsResponseData.DescribedGroup out = new DescribeGroupsResponseData.DescribedGroup()
                .setGroupId(groupId).setGroupState("Dead").setProtocolType("").setProtocolData("");
            final ClassicGroupView group = classicGroups.view(groupId);
            if (group != null)
            {
                out.setGroupState(group.state()).setProtocolType(group.protocolType()).setProtocolData(group.protocolName());
                group.members().forEach(member -> out.members().add(new DescribeGroupsResponseData.DescribedGroupMember()
                    .setMemberId(member.memberId()).setGroupInstanceId(member.instanceId())
                    .setClientId(member.clientId()).setClientHost(member.host())
                    .setMemberMetadata(member.metadata()).setMemberAssignment(member.assignment())));
            }
            else if (consumerGroups.isConsumerGroup(groupId))
            {
                out.setErrorCode(Errors.GROUP_ID_NOT_FOUND.code())
                    .setErrorMessage("group \"" + groupId + "\" uses the consumer protocol; describe it as such");
            }
            else if (engine.streams().groups().groupIds().contains(groupId))
            {
                out.setGroupState("Empty").setProtocolType("consumer");
            }
            response.groups().add(out);
        }
        request.respond(response);
    }

    void describeConsumerGroups(final KafkaRequest request)
    {
        final ConsumerGroupDescribeRequestData body = request.body();
        final ConsumerGroupDescribeResponseData response = new ConsumerGroupDescribeResponseData();
        for (final String groupId : body.groupIds())
        {
            final ConsumerGroupDescribeResponseData.DescribedGroup out =
                new ConsumerGroupDescribeResponseData.DescribedGroup().setGroupId(groupId);
            final GroupDescription group = engine.streams().groups().describe(groupId);
            if (group == null)
            {
                // Kafka's Admin describes a classic group, or one with only committed offsets, with DescribeGroups
                // when this says it is not a consumer-protocol group.
                out.setErrorCode(Errors.GROUP_ID_NOT_FOUND.code())
                    .setErrorMessage("group \"" + groupId + "\" has no members of the consumer protocol");
                response.groups().add(out);
                continue;
            }
            out.setGroupState("Stable").setGroupEpoch(group.generation()).setAssignmentEpoch(group.generation())
                .setAssignorName(group.assignor().equals("range") ? "range" : "uniform");
            final Map<String, ConsumerGroups.ConsumerMember> kafkaMembers = consumerGroups.membersBySpoolId(groupId);
            for (final String spoolId : group.members())
            {
                final ConsumerGroups.ConsumerMember kafka = kafkaMembers.get(spoolId);
                final ConsumerGroupDescribeResponseData.Assignment assignment =
                    assignment(group.targetAssignment().getOrDefault(spoolId, List.of()));
                out.members().add(new ConsumerGroupDescribeResponseData.Member()
                    .setMemberId(kafka == null ? spoolId : kafka.kafkaId)
                    .setMemberEpoch(kafka == null ? group.generation() : kafka.epoch)
                    .setClientId(kafka == null ? "spool" : kafka.clientId)
                    .setClientHost(kafka == null ? "" : kafka.host)
                    .setSubscribedTopicNames(new ArrayList<>(group.subscriptions().get(spoolId)))
                    .setAssignment(assignment).setTargetAssignment(assignment));
            }
            response.groups().add(out);
        }
        request.respond(response);
    }

    private ConsumerGroupDescribeResponseData.Assignment assignment(final Collection<TopicPartition> partitions)
    {
        final Map<String, List<Integer>> byTopic = new TreeMap<>();
        partitions.forEach(p -> byTopic.computeIfAbsent(p.topic(), t -> new ArrayList<>()).add(p.partition()));
        final ConsumerGroupDescribeResponseData.Assignment assignment = new ConsumerGroupDescribeResponseData.Assignment();
        byTopic.forEach((topic, list) -> assignment.topicPartitions().add(
            new ConsumerGroupDescribeResponseData.TopicPartitions().setTopicName(topic)
                .setTopicId(topicIds.idOf(topic)).setPartitions(list)));
        return assignment;
    }

    void describeShareGroups(final KafkaRequest request)
    {
        final ShareGroupDescribeRequestData body = request.body();
        final ShareGroupDescribeResponseData response = new ShareGroupDescribeResponseData();
        for (final String groupId : body.groupIds())
        {
            final ShareGroupDescribeResponseData.DescribedGroup out =
                new ShareGroupDescribeResponseData.DescribedGroup().setGroupId(groupId);
            final ShareGroups.ShareGroupView group = shareGroups.view(groupId);
            if (group == null && !engine.subscriptions().contains(groupId))
            {
                response.groups().add(out.setErrorCode(Errors.GROUP_ID_NOT_FOUND.code())
                    .setErrorMessage("no share group or Spool subscription \"" + groupId + "\""));
                continue;
            }
            out.setGroupState(group == null || group.members().isEmpty() ? "Empty" : "Stable")
                .setAssignorName("simple")
                .setGroupEpoch(group == null ? 0 : group.epoch()).setAssignmentEpoch(group == null ? 0 : group.epoch());
            if (group != null)
            {
                for (final ShareGroups.ShareGroupView.MemberView member : group.members())
                {
                    final List<Integer> partitions = new ArrayList<>();
                    for (int p = 0; p < member.partitions(); p++)
                    {
                        partitions.add(p);
                    }
                    final ShareGroupDescribeResponseData.Assignment assignment =
                        new ShareGroupDescribeResponseData.Assignment();
                    assignment.topicPartitions().add(new ShareGroupDescribeResponseData.TopicPartitions()
                        .setTopicId(member.topicId()).setTopicName(member.topic()).setPartitions(partitions));
                    out.members().add(new ShareGroupDescribeResponseData.Member().setMemberId(member.memberId())
                        .setMemberEpoch(member.epoch()).setClientId(member.clientId()).setClientHost(member.host())
                        .setSubscribedTopicNames(List.of(member.topic())).setAssignment(assignment));
                }
            }
            response.groups().add(out);
        }
        request.respond(response);
    }

    void delete(final KafkaRequest request)
    {
        final DeleteGroupsRequestData body = request.body();
        final DeleteGroupsResponseData response = new DeleteGroupsResponseData();
        for (final String groupId : body.groupsNames())
        {
            final DeleteGroupsResponseData.DeletableGroupResult result =
                new DeleteGroupsResponseData.DeletableGroupResult().setGroupId(groupId);
            if (classicGroups.view(groupId) != null || consumerGroups.isConsumerGroup(groupId))
            {
                result.setErrorCode(Errors.NON_EMPTY_GROUP.code());
            }
            else if (engine.streams().groups().groupIds().contains(groupId))
            {
                try
                {
                    engine.streams().groups().deleteGroup(groupId);
                }
                catch (final RuntimeException ex)
                {
                    result.setErrorCode(KafkaErrors.of(ex).code()).setErrorMessage(KafkaErrors.message(ex));
                }
            }
            else if (engine.subscriptions().contains(groupId))
            {
                final ShareGroups.ShareGroupView share = shareGroups.view(groupId);
                if (share != null && !share.members().isEmpty())
                {
                    result.setErrorCode(Errors.NON_EMPTY_GROUP.code());
                }
                else
                {
                    engine.deleteSubscription(groupId);
                }
            }
            else
            {
                result.setErrorCode(Errors.GROUP_ID_NOT_FOUND.code());
            }
            response.results().add(result);
        }
        request.respond(response);
    }
}
