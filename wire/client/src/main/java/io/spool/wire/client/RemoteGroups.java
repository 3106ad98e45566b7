package io.spool.wire.client;

import io.netty.buffer.ByteBuf;
import io.spool.api.stream.GroupReport;
import io.spool.api.stream.MemberAssignment;
import io.spool.api.stream.OffsetSpec;
import io.spool.api.stream.TopicPartition;
import io.spool.wire.Fields;
import io.spool.wire.FrameDescriptor;
import io.spool.wire.GroupAdminDescriptor;
import io.spool.wire.GroupDescriptor;
import io.spool.wire.OpCode;
import io.spool.wire.TopicDescriptor;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Consumer groups on the server, with the embedded {@code GroupCoordinator}'s calls and exceptions: join, heartbeat
 * (which says which partitions to read), leave, commit and read committed offsets; and an operator's list,
 * describe, offset reset and delete. A member joined through this
 * connection leaves when the connection closes. Thread-safe.
 */
public final class RemoteGroups
{
    private final ClientConnection connection;

    RemoteGroups(final ClientConnection connection)
    {
        this.connection = connection;
    }

    /**
     * @param assignor "range", "roundrobin" or "sticky"; the group's first member fixes it.
     * @return the new member's id.
     */
    public String join(final String groupId, final Set<String> topics, final String assignor,
        final long sessionTimeoutMillis)
    {
        final ByteBuf out = begin(OpCode.GROUP_JOIN, groupId);
        Fields.writeString(out, assignor);
        out.writeLongLE(sessionTimeoutMillis);
        GroupDescriptor.encodeStrings(out, topics);
        return call(out, Fields::readString);
    }

    /**
     * Keeps the member alive.
     *
     * @param knownVersion the version of the last assignment seen, or -1.
     * @return the member's partitions now, or null when they did not change since {@code knownVersion}.
     */
    public MemberAssignment heartbeat(final String groupId, final String memberId, final long knownVersion)
    {
        final ByteBuf out = begin(OpCode.GROUP_HEARTBEAT, groupId);
        Fields.writeString(out, memberId);
        out.writeLongLE(knownVersion);
        return call(out, GroupDescriptor::decodeAssignment);
    }

    public void leave(final String groupId, final String memberId)
    {
        final ByteBuf out = begin(OpCode.GROUP_LEAVE, groupId);
        Fields.writeString(out, memberId);
        call(out, body -> null);
    }

    /** Commits as a member, for partitions it owns. */
    public void commit(final String groupId, final String memberId, final Map<TopicPartition, Long> offsets)
    {
        final ByteBuf out = begin(OpCode.COMMIT_OFFSETS, groupId);
        Fields.writeString(out, memberId);
        GroupDescriptor.encodeOffsets(out, offsets);
        call(out, body -> null);
    }

    /** Commits for a group that has no members (a consumer that assigns its partitions itself). */
    public void commitStandalone(final String groupId, final Map<TopicPartition, Long> offsets)
    {
        commit(groupId, "", offsets);
    }

    public Map<TopicPartition, Long> committed(final String groupId)
    {
        return call(begin(OpCode.FETCH_COMMITTED, groupId), GroupDescriptor::decodeOffsets);
    }

    /** The ids of the groups with live members or committed offsets, sorted. */
    public List<String> list()
    {
        final ByteBuf out = connection.alloc().ioBuffer(FrameDescriptor.HEADER_LENGTH);
        FrameDescriptor.begin(out, OpCode.LIST_GROUPS, 0, 0);
        return call(out, TopicDescriptor::decodeNames);
    }

    /**
     * A group's members and where it stands on each partition (see {@code StreamEngine.describeGroup}).
     *
     * @throws io.spool.api.stream.UnknownGroupException when it has neither members nor committed offsets.
     */
    public GroupReport describe(final String groupId)
    {
        return call(begin(OpCode.DESCRIBE_GROUP, groupId), GroupAdminDescriptor::decodeReport);
    }

    /**
     * Commits the offsets {@code spec} names in {@code partitions} of {@code topic} (all when empty).
     *
     * @return the offsets committed.
     * @throws io.spool.api.stream.InvalidGroupException when the group has live members.
     */
    public Map<TopicPartition, Long> resetOffsets(final String groupId, final String topic,
        final List<Integer> partitions, final OffsetSpec spec)
    {
        return reset(groupId, topic, partitions, spec, false);
    }

    /** The offsets {@link #resetOffsets} would commit now, committing nothing. */
    public Map<TopicPartition, Long> planOffsetReset(final String groupId, final String topic,
        final List<Integer> partitions, final OffsetSpec spec)
    {
        return reset(groupId, topic, partitions, spec, true);
    }

    /**
     * Forgets a group's committed offsets.
     *
     * @throws io.spool.api.stream.UnknownGroupException when it has neither members nor committed offsets.
     * @throws io.spool.api.stream.InvalidGroupException when it has live members.
     */
    public void delete(final String groupId)
    {
        call(begin(OpCode.DELETE_GROUP, groupId), body -> null);
    }

    private Map<TopicPartition, Long> reset(final String groupId, final String topic, final List<Integer> partitions,
        final OffsetSpec spec, final boolean dryRun)
    {
        final ByteBuf out = connection.alloc().ioBuffer(128);
        FrameDescriptor.begin(out, OpCode.RESET_OFFSETS, 0, 0);
        GroupAdminDescriptor.encodeReset(out, groupId, topic, partitions, spec, dryRun);
        return call(out, GroupDescriptor::decodeOffsets);
    }

    private ByteBuf begin(final int opCode, final String groupId)
    {
        final ByteBuf out = connection.alloc().ioBuffer(128);
        FrameDescriptor.begin(out, opCode, 0, 0);
        Fields.writeString(out, groupId);
        return out;
    }

    private <T> T call(final ByteBuf frame, final java.util.function.Function<ByteBuf, T> decoder)
    {
        FrameDescriptor.finish(frame, 0);
        return connection.call(frame, decoder, 0);
    }
}
