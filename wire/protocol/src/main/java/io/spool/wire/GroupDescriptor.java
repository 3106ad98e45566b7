package io.spool.wire;

import io.netty.buffer.ByteBuf;
import io.spool.api.stream.MemberAssignment;
import io.spool.api.stream.TopicPartition;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Bodies of the consumer group operations. Strings are a uint16 byte count and UTF-8 bytes; a partition is a
 * topic (string) and a partition number (int32).
 * <pre>
 *  GROUP_JOIN       request: Group, Assignor ("range", "roundrobin", "sticky"), Session Timeout Millis (int64),
 *                            Topic Count (int32), Topics
 *                   response: Member Id (string)
 *  GROUP_HEARTBEAT  request: Group, Member Id, Known Version (int64, -1 = none)
 *                   response: Changed (int8); when 1: Generation (int32), Version (int64), Count (int32),
 *                             Partitions
 *  GROUP_LEAVE      request: Group, Member Id; response: empty
 *  COMMIT_OFFSETS   request: Group, Member Id ("" = standalone commit), Count (int32), then per partition:
 *                            Partition, Offset (int64); response: empty
 *  FETCH_COMMITTED  request: Group; response: Count (int32), then per partition: Partition, Offset (int64)
 * </pre>
 * A member that joined through a connection leaves when that connection closes, so its partitions move at once
 * instead of after its session timeout.
 * <p>
 * Stateless, thread-safe.
 */
public final class GroupDescriptor
{
    private GroupDescriptor()
    {
    }

    public static void encodeStrings(final ByteBuf out, final Set<String> strings)
    {
        out.writeIntLE(strings.size());
        strings.forEach(string -> Fields.writeString(out, string));
    }

    public static Set<String> decodeStrings(final ByteBuf in)
    {
        final int count = in.readIntLE();
        if (count < 0 || count > in.readableBytes() / 2)
        {
            throw new IndexOutOfBoundsException("string count " + count + " runs past the frame");
        }
        final Set<String> strings = new HashSet<>();
        for (int i = 0; i < count; i++)
        {
            strings.add(Fields.readString(in));
        }
        return strings;
    }

    /** Writes an assignment, or the unchanged marker for null. */
    public static void encodeAssignment(final ByteBuf out, final MemberAssignment assignment)
    {
        if (assignment == null)
        {
            out.writeByte(0);
            return;
        }
        out.writeByte(1);
        out.writeIntLE(assignment.generation());
        out.writeLongLE(assignment.version());
        out.writeIntLE(assignment.partitions().size());
        for (final TopicPartition partition : assignment.partitions())
        {
            Fields.writeString(out, partition.topic());
            out.writeIntLE(partition.partition());
        }
    }

    /** The assignment, or null when it did not change since the known version. */
    public static MemberAssignment decodeAssignment(final ByteBuf in)
    {
        if (in.readUnsignedByte() == 0)
        {
            return null;
        }
        final int generation = in.readIntLE();
        final long version = in.readLongLE();
        final int count = in.readIntLE();
        final Set<TopicPartition> partitions = new HashSet<>();
        for (int i = 0; i < count; i++)
        {
            partitions.add(new TopicPartition(Fields.readString(in), in.readIntLE()));
        }
        return new MemberAssignment(generation, version, partitions);
    }

    public static void encodeOffsets(final ByteBuf out, final Map<TopicPartition, Long> offsets)
    {
        out.writeIntLE(offsets.size());
        for (final Map.Entry<TopicPartition, Long> entry : offsets.entrySet())
        {
            Fields.writeString(out, entry.getKey().topic());
            out.writeIntLE(entry.getKey().partition());
            out.writeLongLE(entry.getValue());
        }
    }

    public static Map<TopicPartition, Long> decodeOffsets(final ByteBuf in)
    {
        final int count = in.readIntLE();
        if (count < 0 || count > in.readableBytes() / 14)
        {
            throw new IndexOutOfBoundsException("offset count " + count + " runs past the frame");
        }
        final Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
        for (int i = 0; i < count; i++)
        {
            offsets.put(new TopicPartition(Fields.readString(in), in.readIntLE()), in.readLongLE());
        }
        return offsets;
    }
}
