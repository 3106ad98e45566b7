package io.spool.wire.kafka;

import io.spool.api.stream.GroupDescription;
import io.spool.api.stream.TopicPartition;
import io.spool.stream.ExternalGroups;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;

import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The classic groups' members as Spool's group API shows a group: member id, the topics it subscribes to and the
 * partitions its leader assigned it, read from the consumer protocol's subscription and assignment (which a client
 * sends the coordinator as bytes), as a consumer-protocol (KIP-848) group's are shown. A group of another protocol
 * type than {@code consumer} shows its members with no topics or partitions. Thread-safe.
 */
final class ClassicGroupMemberships implements ExternalGroups
{
    private static final String CONSUMER_PROTOCOL = "consumer";

    private final ClassicGroups groups;

    ClassicGroupMemberships(final ClassicGroups groups)
    {
        this.groups = groups;
    }

    @Override
    public GroupDescription describe(final String groupId)
    {
        final ClassicGroupView group = groups.view(groupId);
        if (group == null)
        {
            return null;
        }
        final boolean consumer = CONSUMER_PROTOCOL.equals(group.protocolType());
        final Map<String, List<TopicPartition>> assignment = new HashMap<>();
        final Map<String, Set<String>> subscriptions = new HashMap<>();
        for (final ClassicGroupView.MemberView member : group.members())
        {
            subscriptions.put(member.memberId(), consumer ? topics(member.metadata()) : Set.of());
            assignment.put(member.memberId(), consumer ? partitions(member.assignment()) : List.of());
        }
        return new GroupDescription(groupId, group.generation(), group.protocolName(), assignment, subscriptions);
    }

    @Override
    public Collection<String> groupIds()
    {
        return groups.views().stream().map(ClassicGroupView::groupId).toList();
    }

    private static Set<String> topics(final byte[] metadata)
    {
        if (metadata == null || metadata.length == 0)
        {
            return Set.of();
        }
        try
        {
            return new TreeSet<>(ConsumerProtocol.deserializeSubscription(ByteBuffer.wrap(metadata)).topics());
        }
        catch (final RuntimeException unreadable)
        {
            return Set.of();
        }
    }

    /** The partitions the leader assigned; none before the group's first SyncGroup. */
    private static List<TopicPartition> partitions(final byte[] assignment)
    {
        if (assignment == null || assignment.length == 0)
        {
            return List.of();
        }
        try
        {
            return ConsumerProtocol.deserializeAssignment(ByteBuffer.wrap(assignment)).partitions().stream()
                .map(p -> new TopicPartition(p.topic(), p.partition())).sorted().toList();
        }
        catch (final RuntimeException unreadable)
        {
            return List.of();
        }
    }
}
