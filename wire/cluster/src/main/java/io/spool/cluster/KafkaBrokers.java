package io.spool.cluster;

import io.netty.buffer.ByteBuf;
import io.spool.cluster.KafkaEntryDescriptor.KafkaAddress;
import io.spool.wire.Fields;
import io.spool.wire.kafka.KafkaCluster;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The Kafka listeners the nodes of a cluster have announced through the metadata group (ANNOUNCE_KAFKA entries),
 * the latest of each node: what a node's Metadata answer lists as brokers. Every node applies the same entries, so
 * every node lists the same brokers once it has caught up; the metadata group's snapshot keeps them
 * ({@link #writeTo}), since a node restarted from it applies only the announcements after it. Written by the metadata group's apply thread, read by
 * any; thread-safe.
 */
final class KafkaBrokers
{
    private final ConcurrentSkipListMap<Integer, KafkaAddress> addresses = new ConcurrentSkipListMap<>();

    void announced(final KafkaAddress address)
    {
        addresses.put(address.nodeId(), address);
    }

    /** By node id. */
    List<KafkaCluster.Broker> brokers()
    {
        final List<KafkaCluster.Broker> brokers = new ArrayList<>(addresses.size());
        addresses.values().forEach(address ->
            brokers.add(new KafkaCluster.Broker(address.nodeId(), address.host(), address.port())));
        return brokers;
    }

    /**
     * Writes every announced listener by node id: count (int32), then each one's ANNOUNCE_KAFKA entry as bytes.
     */
    void writeTo(final ByteBuf out)
    {
        final List<KafkaAddress> announced = List.copyOf(addresses.values());
        out.writeIntLE(announced.size());
        for (final KafkaAddress address : announced)
        {
            Fields.writeBytes(out, KafkaEntryDescriptor.announceKafka(address).getContent().toByteArray());
        }
    }

    /** Replaces every listener with those {@link #writeTo} wrote. */
    void readFrom(final ByteBuf in)
    {
        addresses.clear();
        for (int i = 0, count = in.readIntLE(); i < count; i++)
        {
            announced(KafkaEntryDescriptor.decodeAnnounceKafka(ByteString.copyFrom(Fields.readBytes(in))));
        }
    }
}
