package io.spool.wire;

import io.netty.buffer.ByteBuf;
import io.spool.api.stream.GroupDescription;
import io.spool.api.stream.GroupReport;
import io.spool.api.InvalidRequestException;
import io.spool.api.stream.OffsetSpec;
import io.spool.api.stream.TopicPartition;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Bodies of the consumer group operations an operator uses. Strings are a uint16 byte count and UTF-8 bytes;
 * integers are little-endian; a partition is a topic (string) and a partition number (int32).
 * <pre>
 *  LIST_GROUPS     request: empty; response: Count (int32), Group Ids
 *  DESCRIBE_GROUP  request: Group
 *                  response: Group, Active (int8); when 1: Generation (int32), Assignor (string),
 *                    Member Count (int32), then per member: Member Id, Topic Count (int32), Topics,
 *                    Partition Count (int32), Partitions;
 *                    then Position Count (int32), per position: Partition, Committed (int64, -1 = none),
 *                    Start Offset (int64), End Offset (int64), Lag (int64)
 *  RESET_OFFSETS   request: Group, Topic, Partition Count (int32, 0 = every partition), Partition (int32) each,
 *                    Kind (int8: 0 earliest, 1 latest, 2 offset, 3 timestamp), Value (int64: the offset or epoch
 *                    ms, 0 otherwise), Dry Run (int8: 1 = commit nothing)
 *                  response: Count (int32), then per partition: Partition, Offset (int64), as FETCH_COMMITTED
 *  DELETE_GROUP    request: Group; response: empty
 * </pre>
 * Stateless, thread-safe.
 */
public final class GroupAdminDescriptor
{
    private static final OffsetSpec.Kind[] KINDS = OffsetSpec.Kind.values();

    private GroupAdminDescriptor()
    {
    }

    public static void encodeReport(final ByteBuf out, final GroupReport report)
    {
        Fields.writeString(out, report.groupId());
        final GroupDescription membership = report.membership();
        out.writeByte(membership == null ? 0 : 1);
        if (membership != null)
        {
            out.writeIntLE(membership.generation());
            Fields.writeString(out, membership.assignor());
            out.writeIntLE(membership.members().size());
            for (final String member : membership.members())
            {
                Fields.writeString(out, member);
                GroupDescriptor.encodeStrings(out, membership.subscriptions().get(member));
                final List<TopicPartition> partitions = membership.targetAssignment().getOrDefault(member, List.of());
                out.writeIntLE(partitions.size());
                for (final TopicPartition partition : partitions)
                {
                    encodePartition(out, partition);
                }
            }
        }
        out.writeIntLE(report.partitions().size());
        for (final GroupReport.PartitionPosition position : report.partitions())
        {
            encodePartition(out, position.partition());
            out.writeLongLE(position.committed());
            out.writeLongLE(position.startOffset());
            out.writeLongLE(position.endOffset());
            out.writeLongLE(position.lag());
        }
    }

    public static GroupReport decodeReport(final ByteBuf in)
    {
        final String groupId = Fields.readString(in);
        GroupDescription membership = null;
        if (in.readUnsignedByte() != 0)
        {
            final int generation = in.readIntLE();
            final String assignor = Fields.readString(in);
            final int members = count(in, "member");
            final Map<String, List<TopicPartition>> assignment = new LinkedHashMap<>();
            final Map<String, Set<String>> subscriptions = new LinkedHashMap<>();
            for (int m = 0; m < members; m++)
            {
                final String member = Fields.readString(in);
                subscriptions.put(member, GroupDescriptor.decodeStrings(in));
                final int partitions = count(in, "partition");
                final List<TopicPartition> owned = new ArrayList<>(partitions);
                for (int p = 0; p < partitions; p++)
                {
                    owned.add(decodePartition(in));
                }
                assignment.put(member, owned);
            }
            membership = new GroupDescription(groupId, generation, assignor, assignment, subscriptions);
        }
        final int positions = count(in, "position");
        final List<GroupReport.PartitionPosition> partitions = new ArrayList<>(positions);
        for (int i = 0; i < positions; i++)
        {
            partitions.add(new GroupReport.PartitionPosition(decodePartition(in), in.readLongLE(), in.readLongLE(),
                in.readLongLE(), in.readLongLE()));
        }
        return new GroupReport(groupId, membership, partitions);
    }

    public static void encodeReset(final ByteBuf out, final String groupId, final String topic,
        final List<Integer> partitions, final OffsetSpec spec, final boolean dryRun)
    {
        Fields.writeString(out, groupId);
        Fields.writeString(out, topic);
        out.writeIntLE(partitions.size());
        partitions.forEach(out::writeIntLE);
        out.writeByte(spec.kind().ordinal());
        out.writeLongLE(spec.value());
        out.writeByte(dryRun ? 1 : 0);
    }

    /**
     * A decoded RESET_OFFSETS request. Immutable, thread-safe.
     */
    public record Reset(String groupId, String topic, List<Integer> partitions, OffsetSpec spec, boolean dryRun)
    {
    }

    /**
     * @throws InvalidRequestException for an unknown kind, a negative value or a dry-run flag other than 0 or 1.
     */
    public static Reset decodeReset(final ByteBuf in)
    {
        final String groupId = Fields.readString(in);
        final String topic = Fields.readString(in);
        final int count = count(in, "partition");
        final List<Integer> partitions = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            partitions.add(in.readIntLE());
        }
        final int kind = in.readUnsignedByte();
        if (kind >= KINDS.length)
        {
            throw new InvalidRequestException("unknown offset reset kind " + kind + ", known are 0 to " +
                (KINDS.length - 1));
        }
        final OffsetSpec spec = new OffsetSpec(KINDS[kind], in.readLongLE());
        final int dryRun = in.readUnsignedByte();
        if (dryRun > 1)
        {
            throw new InvalidRequestException("the dry-run flag must be 0 or 1, was " + dryRun);
        }
        return new Reset(groupId, topic, partitions, spec, dryRun == 1);
    }

    private static void encodePartition(final ByteBuf out, final TopicPartition partition)
    {
        Fields.writeString(out, partition.topic());
        out.writeIntLE(partition.partition());
    }

    private static TopicPartition decodePartition(final ByteBuf in)
    {
        return new TopicPartition(Fields.readString(in), in.readIntLE());
    }

    /** A count read before its items; each item takes at least four bytes, so a count past that is malformed. */
    private static int count(final ByteBuf in, final String what)
    {
        final int count = in.readIntLE();
        if (count < 0 || count > in.readableBytes() / 4)
        {
            throw new IndexOutOfBoundsException(what + " count " + count + " runs past the frame");
        }
        return count;
    }
}
