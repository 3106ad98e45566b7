package io.spool.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.spool.api.log.HeadersCodec;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.wire.Fields;
import io.spool.wire.TopicDescriptor;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The entries a cluster's Raft groups order, and the replies their state machines give. Every integer is little
 * endian; a string is a uint16 byte count and UTF-8 bytes, a byte field an int32 count (-1 for null) and the bytes.
 * <pre>
 *  PUBLISH entry (a partition's group)            CREATE_TOPIC entry (the metadata group)
 *  +-------------------------------------+        +-------------------------------------+
 *  | Version (int8) = 1 | Type (int8) = 1|        | Version (int8) = 1 | Type (int8) = 2|
 *  | Producer Id (int64)                 |        | Name (string)                       |
 *  | Sequence (int64)                    |        | Replication Factor (int32)          |
 *  | Record Count (int32)                |        | Topic Config (TopicDescriptor's)    |
 *  | per record: Timestamp (int64),      |        | Generation (int64)                  |
 *  |                                     |        +-------------------------------------+
 *  |   Key (bytes), Headers (bytes, as   |
 *  |   HeadersCodec encodes them),       |        reply to either
 *  |   Value (bytes)                     |        +-------------------------------------+
 *  +-------------------------------------+        | Status (int8: 0 stored, 1 duplicate,|
 *                                                 |   2 refused)                        |
 *                                                 | Base Offset (int64) | Count (int32) |
 *                                                 | Problem (string, empty unless       |
 *                                                 |   refused)                          |
 *                                                 +-------------------------------------+
 *
 *  COMMIT_OFFSET entry (a partition's group)      a partition's group answers a query of an empty message with
 *  +-------------------------------------+        its replicated end (as a reply's base offset), and a query
 *  | Version (int8) = 1 | Type (int8) = 3|        naming a consumer group (UTF-8) with the group's committed
 *  | Group (string) | Offset (int64)     |        offset there (-1 for none)
 *  | Coordinator Epoch (int64)           |
 *  +-------------------------------------+        DELETE_GROUP_OFFSET entry (a partition's group)
 *                                                 +--------------------------------------+
 *  a commit or deletion from a coordinator        | Version (int8) = 1 | Type (int8) = 11|
 *  older than one applied for the group is        | Group (string)                       |
 *  answered Status 6, stale coordinator           | Coordinator Epoch (int64)            |
 *  ({@link CoordinatorEpochs})                    +--------------------------------------+
 *
 *  DELETE_TOPIC entry (the metadata group)        ALTER_TOPIC_RETENTION entry (the metadata group)
 *  +--------------------------------------+       +--------------------------------------+
 *  | Version (int8) = 1 | Type (int8) = 10|       | Version (int8) = 1 | Type (int8) = 12|
 *  | Name (string)                        |       | Name (string)                        |
 *  +--------------------------------------+       | Retention Millis (int64, -1 = none)  |
 *                                                 | Retention Bytes (int64, -1 = none)   |
 *                                                 +--------------------------------------+
 * </pre>
 * A COMMIT_OFFSET entry written before coordinators were fenced ends after its offset, and is of epoch 0, which
 * is never fenced. A CREATE_TOPIC entry a client sends has generation 0: the metadata group gives the topic its entry's index as its
 * generation, which its partitions' group ids hold ({@link ClusterGroups#partitionGroupId}); the topic as the
 * group describes it (in a query's answer and in its snapshot) carries that generation.
 * The timestamp travels in the entry, so that every node stores the same bytes: a node never stamps a replicated
 * record with its own clock. Stateless, thread-safe.
 */
public final class ClusterEntryDescriptor
{
    public static final int VERSION = 1;
    public static final int TYPE_PUBLISH = 1;
    public static final int TYPE_CREATE_TOPIC = 2;
    public static final int TYPE_COMMIT_OFFSET = 3;
    public static final int TYPE_DELETE_TOPIC = 10;
    public static final int TYPE_DELETE_GROUP_OFFSET = 11;
    public static final int TYPE_ALTER_TOPIC_RETENTION = 12;
    /** Several entries of one partition's group, committed as one Raft entry; see {@link #envelope}. */
    public static final int TYPE_ENVELOPE = 16;

    public static final int STATUS_STORED = 0;
    public static final int STATUS_DUPLICATE = 1;
    public static final int STATUS_REFUSED = 2;
    /** A commit or deletion from a coordinator of an epoch older than one the partition has applied for the group. */
    public static final int STATUS_STALE_COORDINATOR = 6;

    private ClusterEntryDescriptor()
    {
    }

    /** A decoded PUBLISH entry, its records bound for the group's partition. */
    public record Publish(long producerId, long sequence, List<ProducerRecord> records)
    {
    }

    /** A decoded CREATE_TOPIC entry; the generation is 0 until the metadata group applied it. */
    public record CreateTopic(String name, int replicationFactor, TopicConfig config, long generation)
    {
        public CreateTopic withGeneration(final long createdAt)
        {
            return new CreateTopic(name, replicationFactor, config, createdAt);
        }

        public CreateTopic withConfig(final TopicConfig changed)
        {
            return new CreateTopic(name, replicationFactor, changed, generation);
        }
    }

    /** A decoded ALTER_TOPIC_RETENTION entry: a topic's new retention limits. */
    public record AlterTopicRetention(String name, long retentionMillis, long retentionBytes)
    {
    }

    /** A decoded COMMIT_OFFSET entry. */
    public record CommitOffset(String group, long offset, long coordinatorEpoch)
    {
    }

    /** A decoded DELETE_GROUP_OFFSET entry: the group's offset in the partition goes, and its epoch there. */
    public record DeleteGroupOffset(String group, long coordinatorEpoch)
    {
    }

    /** A decoded reply. */
    public record Reply(int status, long baseOffset, int count, String problem)
    {
        public static Reply refused(final String problem)
        {
            return new Reply(STATUS_REFUSED, -1, 0, problem);
        }
    }

    public static Message publish(final long producerId, final long sequence, final List<ProducerRecord> records)
    {
        final ByteBuf out = Unpooled.buffer(64 + records.size() * 64);
        out.writeByte(VERSION);
        out.writeByte(TYPE_PUBLISH);
        out.writeLongLE(producerId);
        out.writeLongLE(sequence);
        writeRecords(out, records);
        return toMessage(out);
    }

    /** A batch's Record Count and records, as PUBLISH lays them out (and KAFKA_PUBLISH after it). */
    static void writeRecords(final ByteBuf out, final List<ProducerRecord> records)
    {
        out.writeIntLE(records.size());
        for (final ProducerRecord record : records)
        {
            out.writeLongLE(record.timestamp());
            Fields.writeBytes(out, record.key());
            Fields.writeBytes(out, HeadersCodec.encode(record.headers()));
            Fields.writeBytes(out, record.value());
        }
    }

    /** A client's CREATE_TOPIC entry, of generation 0. */
    public static Message createTopic(final String name, final int replicationFactor, final TopicConfig config)
    {
        return createTopic(new CreateTopic(name, replicationFactor, config, 0));
    }

    /** A topic as the metadata group describes it, with its generation. */
    public static Message createTopic(final CreateTopic topic)
    {
        final ByteBuf out = Unpooled.buffer(128);
        out.writeByte(VERSION);
        out.writeByte(TYPE_CREATE_TOPIC);
        Fields.writeString(out, topic.name());
        out.writeIntLE(topic.replicationFactor());
        TopicDescriptor.encodeConfig(out, topic.config());
        out.writeLongLE(topic.generation());
        return toMessage(out);
    }

    public static Message deleteTopic(final String name)
    {
        final ByteBuf out = Unpooled.buffer(16 + name.length() * 3);
        out.writeByte(VERSION);
        out.writeByte(TYPE_DELETE_TOPIC);
        Fields.writeString(out, name);
        return toMessage(out);
    }

    /** The name a DELETE_TOPIC entry deletes. */
    public static String decodeDeleteTopic(final ByteString entry)
    {
        final ByteBuf in = Unpooled.wrappedBuffer(entry.asReadOnlyByteBuffer());
        in.skipBytes(2);
        return Fields.readString(in);
    }

    public static Message alterTopicRetention(final AlterTopicRetention alter)
    {
        final ByteBuf out = Unpooled.buffer(32 + alter.name().length() * 3);
        out.writeByte(VERSION);
        out.writeByte(TYPE_ALTER_TOPIC_RETENTION);
        Fields.writeString(out, alter.name());
        out.writeLongLE(alter.retentionMillis());
        out.writeLongLE(alter.retentionBytes());
        return toMessage(out);
    }

    public static AlterTopicRetention decodeAlterTopicRetention(final ByteString entry)
    {
        final ByteBuf in = Unpooled.wrappedBuffer(entry.asReadOnlyByteBuffer());
        in.skipBytes(2);
        final String name = Fields.readString(in);
        final long retentionMillis = in.readLongLE();
        return new AlterTopicRetention(name, retentionMillis, in.readLongLE());
    }

    /** @param coordinatorEpoch the coordinator's epoch, or {@link CoordinatorEpochs#UNFENCED}. */
    public static Message commitOffset(final String group, final long offset, final long coordinatorEpoch)
    {
        final ByteBuf out = Unpooled.buffer(40 + group.length() * 3);
        out.writeByte(VERSION);
        out.writeByte(TYPE_COMMIT_OFFSET);
        Fields.writeString(out, group);
        out.writeLongLE(offset);
        out.writeLongLE(coordinatorEpoch);
        return toMessage(out);
    }

    public static CommitOffset decodeCommitOffset(final ByteString entry)
    {
        final ByteBuf in = Unpooled.wrappedBuffer(entry.asReadOnlyByteBuffer());
        in.skipBytes(2);
        final String group = Fields.readString(in);
        final long offset = in.readLongLE();
        return new CommitOffset(group, offset, in.isReadable() ? in.readLongLE() : CoordinatorEpochs.UNFENCED);
    }

    public static Message deleteGroupOffset(final String group, final long coordinatorEpoch)
    {
        final ByteBuf out = Unpooled.buffer(32 + group.length() * 3);
        out.writeByte(VERSION);
        out.writeByte(TYPE_DELETE_GROUP_OFFSET);
        Fields.writeString(out, group);
        out.writeLongLE(coordinatorEpoch);
        return toMessage(out);
    }

    public static DeleteGroupOffset decodeDeleteGroupOffset(final ByteString entry)
    {
        final ByteBuf in = Unpooled.wrappedBuffer(entry.asReadOnlyByteBuffer());
        in.skipBytes(2);
        final String group = Fields.readString(in);
        return new DeleteGroupOffset(group, in.readLongLE());
    }

    public static Message reply(final Reply reply)
    {
        final ByteBuf out = Unpooled.buffer(32);
        out.writeByte(reply.status());
        out.writeLongLE(reply.baseOffset());
        out.writeIntLE(reply.count());
        Fields.writeString(out, reply.problem() == null ? "" : reply.problem());
        return toMessage(out);
    }

    /** The entry's type, after checking its version. */
    public static int type(final ByteString entry)
    {
        final int version = entry.byteAt(0);
        if (version != VERSION)
        {
            throw new IllegalStateException("cluster entry version " + version + " is not " + VERSION +
                ": this node runs an older Spool than the one that wrote the entry; upgrade it");
        }
        return entry.byteAt(1);
    }

    public static Publish decodePublish(final String topic, final int partition, final ByteString entry)
    {
        final ByteBuf in = Unpooled.wrappedBuffer(entry.asReadOnlyByteBuffer());
        in.skipBytes(2);
        final long producerId = in.readLongLE();
        final long sequence = in.readLongLE();
        return new Publish(producerId, sequence, readRecords(topic, partition, in));
    }

    /** The records {@link #writeRecords} wrote, bound for the group's partition. */
    static List<ProducerRecord> readRecords(final String topic, final int partition, final ByteBuf in)
    {
        final int count = in.readIntLE();
        final List<ProducerRecord> records = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            final long timestamp = in.readLongLE();
            final byte[] key = Fields.readBytes(in);
            final byte[] headers = Fields.readBytes(in);
            final byte[] value = Fields.readBytes(in);
            records.add(new ProducerRecord(topic, partition, timestamp, key, decodeHeaders(headers),
                value));
        }
        return records;
    }

    private static Map<String, byte[]> decodeHeaders(final byte[] headers)
    {
        return headers == null || headers.length == 0 ? Map.of() :
            HeadersCodec.decode(new UnsafeBuffer(headers), 0, headers.length);
    }

    public static CreateTopic decodeCreateTopic(final ByteString entry)
    {
        final ByteBuf in = Unpooled.wrappedBuffer(entry.asReadOnlyByteBuffer());
        in.skipBytes(2);
        final String name = Fields.readString(in);
        final int replicationFactor = in.readIntLE();
        final TopicConfig config = TopicDescriptor.decodeConfig(in);
        return new CreateTopic(name, replicationFactor, config, in.readLongLE());
    }

    public static Reply decodeReply(final ByteString reply)
    {
        final ByteBuf in = Unpooled.wrappedBuffer(reply.asReadOnlyByteBuffer());
        final int status = in.readByte();
        final long baseOffset = in.readLongLE();
        final int count = in.readIntLE();
        final String problem = Fields.readString(in);
        return new Reply(status, baseOffset, count, problem);
    }

    /**
     * Several entries of one partition's group as one Raft entry, applied in their order as if each were an entry
     * of its own, and answered with an envelope of their replies ({@link #envelopeReply}):
     * Version (int8) | Type (int8) = 16 | Entry Count (int32) | per entry: Length (int32), the entry's bytes.
     * Queue entries never travel in one: the leader stamps each of them with its clock when it takes it.
     */
    static Message envelope(final List<Message> entries)
    {
        final ByteBuf header = Unpooled.buffer(6);
        header.writeByte(VERSION);
        header.writeByte(TYPE_ENVELOPE);
        header.writeIntLE(entries.size());
        ByteString envelope = ByteString.copyFrom(header.nioBuffer());
        for (final Message entry : entries)
        {
            envelope = envelope.concat(lengthPrefix(entry.getContent())).concat(entry.getContent());
        }
        return Message.valueOf(envelope);
    }

    /** The entries of an {@link #envelope}, in order. */
    static List<ByteString> decodeEnvelope(final ByteString envelope)
    {
        return decodeLengthPrefixed(envelope, 2);
    }

    /** The replies to an envelope's entries, in its order: Reply Count (int32) | per reply: Length, bytes. */
    static Message envelopeReply(final List<Message> replies)
    {
        ByteString reply = ByteString.copyFrom(Unpooled.buffer(4).writeIntLE(replies.size()).nioBuffer());
        for (final Message inner : replies)
        {
            reply = reply.concat(lengthPrefix(inner.getContent())).concat(inner.getContent());
        }
        return Message.valueOf(reply);
    }

    static List<ByteString> decodeEnvelopeReply(final ByteString reply)
    {
        return decodeLengthPrefixed(reply, 0);
    }

    private static ByteString lengthPrefix(final ByteString bytes)
    {
        return ByteString.copyFrom(Unpooled.buffer(4).writeIntLE(bytes.size()).nioBuffer());
    }

    private static List<ByteString> decodeLengthPrefixed(final ByteString bytes, final int countAt)
    {
        final ByteBuf in = Unpooled.wrappedBuffer(bytes.asReadOnlyByteBuffer());
        in.skipBytes(countAt);
        final int count = in.readIntLE();
        final List<ByteString> parts = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            final int length = in.readIntLE();
            parts.add(bytes.substring(in.readerIndex(), in.readerIndex() + length));
            in.skipBytes(length);
        }
        return parts;
    }

    static Message toMessage(final ByteBuf out)
    {
        final byte[] bytes = new byte[out.readableBytes()];
        out.readBytes(bytes);
        return Message.valueOf(ByteString.copyFrom(bytes));
    }
}
