package io.spool.wire;

import io.netty.buffer.ByteBuf;
import io.spool.api.log.Durability;
import io.spool.api.log.LogConfig;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicDescription;

import java.util.ArrayList;
import java.util.List;

/**
 * Bodies of the topic admin operations. A topic's settings travel whole, so the client's {@link TopicConfig} is the
 * server's.
 * <pre>
 *  Topic Config                                   CREATE_TOPIC request: Name (string), Topic Config
 *  +--------------------------------------+       DELETE_TOPIC request: Name (string); response: empty
 *  | Partitions (int32)                   |  0    DESCRIBE_TOPIC request: Name (string)
 *  | Segment Bytes (int32)                |  4      response: Name (string), Topic Config,
 *  | Index Interval Bytes (int32)         |  8        Partition Count (int32), then per partition:
 *  | Max Record Bytes (int32)             | 12        Partition (int32), Start Offset (int64),
 *  | Segment Roll Millis (int64)          | 16        End Offset (int64), Size In Bytes (int64),
 *  | Retention Millis (int64, -1 = none)  | 24        Segment Count (int32)
 *  | Retention Bytes (int64, -1 = none)   | 32    LIST_TOPICS request: empty
 *  | Durability (int8: 0 none, 1 interval,| 40      response: Count (int32), Names (string each)
 *  |   2 every batch)                     |
 *  | Durability Interval Millis (int64)   | 41    A string is a uint16 byte count and UTF-8 bytes.
 *  | Dedup Window Millis (int64)          | 49    ALTER_TOPIC_RETENTION request: Name (string),
 *  | Dedup By Content (int8: 0 or 1)      | 57      Retention Millis (int64), Retention Bytes (int64)
 *  |                                      |         (-1 = none); response: empty
 *  +--------------------------------------+ 58
 * </pre>
 * <p>
 * Stateless, thread-safe.
 */
public final class TopicDescriptor
{
    public static final int CONFIG_LENGTH = 58;

    private TopicDescriptor()
    {
    }

    public static void encodeConfig(final ByteBuf out, final TopicConfig config)
    {
        final LogConfig log = config.log();
        out.writeIntLE(config.partitions());
        out.writeIntLE(log.segmentBytes());
        out.writeIntLE(log.indexIntervalBytes());
        out.writeIntLE(log.maxRecordBytes());
        out.writeLongLE(log.segmentRollMillis());
        out.writeLongLE(log.retentionMillis());
        out.writeLongLE(log.retentionBytes());
        out.writeByte(log.durability().kind().ordinal());
        out.writeLongLE(log.durability().intervalMillis());
        out.writeLongLE(log.dedupWindowMillis());
        out.writeByte(config.dedupByContent() ? 1 : 0);
    }

    /**
     * @throws IllegalArgumentException when a setting is out of range (as the embedded engine would say).
     */
    public static TopicConfig decodeConfig(final ByteBuf in)
    {
        final int partitions = in.readIntLE();
        final LogConfig.Builder log = LogConfig.builder()
            .segmentBytes(in.readIntLE())
            .indexIntervalBytes(in.readIntLE())
            .maxRecordBytes(in.readIntLE())
            .segmentRollMillis(in.readLongLE())
            .retentionMillis(in.readLongLE())
            .retentionBytes(in.readLongLE());
        final int kind = in.readUnsignedByte();
        final long intervalMillis = in.readLongLE();
        log.durability(durability(kind, intervalMillis));
        log.dedupWindowMillis(in.readLongLE());
        final int dedupByContent = in.readUnsignedByte();
        if (dedupByContent > 1)
        {
            throw new IllegalArgumentException("dedup by content must be 0 or 1, was " + dedupByContent);
        }
        return new TopicConfig(partitions, log.build(), dedupByContent == 1);
    }

    private static Durability durability(final int kind, final long intervalMillis)
    {
        final Durability.Kind[] kinds = Durability.Kind.values();
        if (kind >= kinds.length)
        {
            throw new IllegalArgumentException("unknown durability kind " + kind);
        }
        switch (kinds[kind])
        {
            case NONE:
                return Durability.NONE;
            case EVERY_BATCH:
                return Durability.EVERY_BATCH;
            default:
                return Durability.interval(intervalMillis);
        }
    }

    public static void encodeDescription(final ByteBuf out, final TopicDescription description)
    {
        Fields.writeString(out, description.name());
        encodeConfig(out, description.config());
        out.writeIntLE(description.partitions().size());
        for (final TopicDescription.PartitionDescription partition : description.partitions())
        {
            out.writeIntLE(partition.partition());
            out.writeLongLE(partition.startOffset());
            out.writeLongLE(partition.endOffset());
            out.writeLongLE(partition.sizeInBytes());
            out.writeIntLE(partition.segmentCount());
            out.writeIntLE(partition.heldElsewhere().size());
            partition.heldElsewhere().forEach(out::writeIntLE);
        }
    }

    public static TopicDescription decodeDescription(final ByteBuf in)
    {
        final String name = Fields.readString(in);
        final TopicConfig config = decodeConfig(in);
        final int count = in.readIntLE();
        final List<TopicDescription.PartitionDescription> partitions = new ArrayList<>(Math.max(0, count));
        for (int i = 0; i < count; i++)
        {
            final TopicDescription.PartitionDescription held = new TopicDescription.PartitionDescription(
                in.readIntLE(), in.readLongLE(), in.readLongLE(), in.readLongLE(), in.readIntLE());
            final int holderCount = in.readIntLE();
            final List<Integer> holders = new ArrayList<>(Math.max(0, holderCount));
            for (int holder = 0; holder < holderCount; holder++)
            {
                holders.add(in.readIntLE());
            }
            partitions.add(held.heldElsewhereBy(holders));
        }
        return new TopicDescription(name, config, partitions);
    }

    public static void encodeNames(final ByteBuf out, final List<String> names)
    {
        out.writeIntLE(names.size());
        for (final String name : names)
        {
            Fields.writeString(out, name);
        }
    }

    public static List<String> decodeNames(final ByteBuf in)
    {
        final int count = in.readIntLE();
        final List<String> names = new ArrayList<>(Math.max(0, count));
        for (int i = 0; i < count; i++)
        {
            names.add(Fields.readString(in));
        }
        return names;
    }
}
