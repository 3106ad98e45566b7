package io.spool.cluster;

import io.spool.cluster.KafkaEntryDescriptor.KafkaAddress;
import io.spool.wire.kafka.KafkaCluster;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The Kafka listeners the nodes of a cluster have announced through the metadata group (ANNOUNCE_KAFKA entries),
 * the latest of each node: what a node's Metadata answer lists as brokers. Every node applies the same entries, so
 * every node lists the same brokers once it has caught up. Written by the metadata group's apply thread, read by
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
}
