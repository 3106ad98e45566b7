package io.spool.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.spool.api.stream.ProducerRecord;
import io.spool.wire.Fields;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

import java.util.List;

/**
 * The entries the Kafka listeners of a cluster's nodes add; the layout rules are {@link ClusterEntryDescriptor}'s
 * (little endian, strings as a uint16 count and UTF-8), and so is the reply.
 * <pre>
 *  KAFKA_PUBLISH (Type 7, a partition's group)      ANNOUNCE_KAFKA (Type 8, the metadata group)
 *  | Version | Type                       |         | Version | Type                       |
 *  | Producer Id (int64, -1 for none)     |         | Node Id (int32)                    |
 *  | Producer Epoch (int16)               |         | Host (string) | Port (int32)       |
 *  | Base Sequence (int32)                |
 *  | Record Count (int32), records as     |         reply: Base Offset is the entry's index in the metadata
 *  |   PUBLISH lays them out              |         group's log, which no other entry has
 *
 *  reply Status (int8): 0 stored, 1 duplicate (Base Offset is the first stored one), 3 out of order sequence,
 *  4 fenced epoch, 5 duplicate forgotten (older than the retained batches); Problem says why for 3 to 5
 * </pre>
 * A Kafka producer's sequence counts records, not batches: a batch's base sequence is the one after its producer's
 * last batch's last record. Stateless, thread-safe.
 */
final class KafkaEntryDescriptor
{
    static final int TYPE_KAFKA_PUBLISH = 7;
    static final int TYPE_ANNOUNCE_KAFKA = 8;

    static final int STATUS_OUT_OF_ORDER = 3;
    static final int STATUS_FENCED_EPOCH = 4;
    static final int STATUS_DUPLICATE_FORGOTTEN = 5;

    private KafkaEntryDescriptor()
    {
    }

    /** A decoded KAFKA_PUBLISH entry. */
    record KafkaPublish(long producerId, short epoch, int baseSequence, List<ProducerRecord> records)
    {
        boolean hasProducerId()
        {
            return producerId >= 0;
        }
    }

    /** A decoded ANNOUNCE_KAFKA entry: where clients reach a node's Kafka listener. */
    record KafkaAddress(int nodeId, String host, int port)
    {
    }

    static Message kafkaPublish(final long producerId, final short epoch, final int baseSequence,
        final List<ProducerRecord> records)
    {
        final ByteBuf out = Unpooled.buffer(64 + records.size() * 64);
        out.writeByte(ClusterEntryDescriptor.VERSION);
        out.writeByte(TYPE_KAFKA_PUBLISH);
        out.writeLongLE(producerId);
        out.writeShortLE(epoch);
        out.writeIntLE(baseSequence);
        ClusterEntryDescriptor.writeRecords(out, records);
        return ClusterEntryDescriptor.toMessage(out);
    }

    static KafkaPublish decodeKafkaPublish(final String topic, final int partition, final ByteString entry)
    {
        final ByteBuf in = Unpooled.wrappedBuffer(entry.asReadOnlyByteBuffer());
        in.skipBytes(2);
        final long producerId = in.readLongLE();
        final short epoch = in.readShortLE();
        final int baseSequence = in.readIntLE();
        return new KafkaPublish(producerId, epoch, baseSequence,
            ClusterEntryDescriptor.readRecords(topic, partition, in));
    }

    static Message announceKafka(final KafkaAddress address)
    {
        final ByteBuf out = Unpooled.buffer(16 + address.host().length() * 3);
        out.writeByte(ClusterEntryDescriptor.VERSION);
        out.writeByte(TYPE_ANNOUNCE_KAFKA);
        out.writeIntLE(address.nodeId());
        Fields.writeString(out, address.host());
        out.writeIntLE(address.port());
        return ClusterEntryDescriptor.toMessage(out);
    }

    static KafkaAddress decodeAnnounceKafka(final ByteString entry)
    {
        final ByteBuf in = Unpooled.wrappedBuffer(entry.asReadOnlyByteBuffer());
        in.skipBytes(2);
        final int nodeId = in.readIntLE();
        final String host = Fields.readString(in);
        return new KafkaAddress(nodeId, host, in.readIntLE());
    }
}
