package io.spool.wire.kafka;

import java.util.List;

/**
 * A copy of one classic group's state, for DescribeGroups and ListGroups. Immutable, thread-safe.
 */
record ClassicGroupView(String groupId, int generation, String state, String protocolType, String protocolName,
    List<MemberView> members)
{
    record MemberView(String memberId, String instanceId, String clientId, String host, byte[] metadata,
        byte[] assignment)
    {
    }

    static ClassicGroupView of(final ClassicGroup group)
    {
        return new ClassicGroupView(group.id, group.generation, group.state.kafkaName, group.protocolType,
            group.protocolName == null ? "" : group.protocolName,
            group.members.values().stream().map(member -> new MemberView(member.id, member.instanceId,
                member.clientId, member.host, group.protocolName == null ? new byte[0] : member.metadata(group.protocolName),
                member.assignment)).toList());
    }
}
