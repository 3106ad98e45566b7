package io.spool.wire.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.spool.api.stream.TopicPartition;
import io.spool.stream.GroupCoordinator;
import io.spool.wire.Fields;
import io.spool.wire.GroupDescriptor;
import io.spool.wire.OpCode;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

/**
 * The consumer group operations of one connection. Group calls take the group's lock, so they run on the admin
 * executor. Members that joined through this connection leave when it closes. Thread-safe: the member set is
 * shared between the event loop and the executor.
 */
final class GroupSession
{
    private final Channel channel;
    private final GroupCoordinator groups;
    private final Executor executor;
    private final HeldPartitions held;
    private final Set<Member> members = ConcurrentHashMap.newKeySet();

    GroupSession(final Channel channel, final GroupCoordinator groups, final Executor executor,
        final HeldPartitions held)
    {
        this.channel = channel;
        this.groups = groups;
        this.executor = executor;
        this.held = held;
    }

    static boolean handles(final int opCode)
    {
        return opCode >= OpCode.GROUP_JOIN && opCode <= OpCode.FETCH_COMMITTED;
    }

    void handle(final int opCode, final long correlationId, final ByteBuf body)
    {
        final String groupId = Fields.readString(body);
        switch (opCode)
        {
            case OpCode.GROUP_JOIN:
            {
                final String assignor = Fields.readString(body);
                final long sessionTimeoutMillis = body.readLongLE();
                final Set<String> topics = GroupDescriptor.decodeStrings(body);
                Fields.expectEnd(body);
                answer(opCode, correlationId, out ->
                {
                    final String memberId = groups.join(groupId, topics, assignor, sessionTimeoutMillis);
                    members.add(new Member(groupId, memberId));
                    Fields.writeString(out, memberId);
                });
                break;
            }
            case OpCode.GROUP_HEARTBEAT:
            {
                final String memberId = Fields.readString(body);
                final long knownVersion = body.readLongLE();
                Fields.expectEnd(body);
                answer(opCode, correlationId, out ->
                    GroupDescriptor.encodeAssignment(out, groups.heartbeat(groupId, memberId, knownVersion)));
                break;
            }
            case OpCode.GROUP_LEAVE:
            {
                final String memberId = Fields.readString(body);
                Fields.expectEnd(body);
                answer(opCode, correlationId, out ->
                {
                    members.remove(new Member(groupId, memberId));
                    groups.leave(groupId, memberId);
                });
                break;
            }
            case OpCode.COMMIT_OFFSETS:
            {
                final String memberId = Fields.readString(body);
                final Map<TopicPartition, Long> offsets = GroupDescriptor.decodeOffsets(body);
                Fields.expectEnd(body);
                answer(opCode, correlationId, out ->
                {
                    offsets.keySet().forEach(partition -> held.requireHeld(partition.topic(), partition.partition()));
                    if (memberId.isEmpty())
                    {
                        groups.commitStandalone(groupId, offsets);
                    }
                    else
                    {
                        groups.commit(groupId, memberId, offsets);
                    }
                });
                break;
            }
            default:
            {
                Fields.expectEnd(body);
                answer(opCode, correlationId,
                    out -> GroupDescriptor.encodeOffsets(out, groups.committedOffsets(groupId)));
                break;
            }
        }
    }

    private void answer(final int opCode, final long correlationId, final java.util.function.Consumer<ByteBuf> work)
    {
        executor.execute(() ->
            channel.writeAndFlush(AdminOperations.respond(channel, opCode, correlationId, work), channel.voidPromise()));
    }

    /** The connection closed: its members leave now. */
    void close()
    {
        if (members.isEmpty())
        {
            return;
        }
        executor.execute(() ->
        {
            for (final Member member : members)
            {
                groups.leave(member.groupId(), member.memberId());
            }
            members.clear();
        });
    }

    private record Member(String groupId, String memberId)
    {
    }
}
