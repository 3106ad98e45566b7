package io.spool.cluster;

import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.requests.MetadataResponse;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One Metadata request for a topic sent to one chosen node ({@link RawKafka}), as a stock client sends it to
 * whichever node it likes: what that node names as each partition's leader and replicas.
 */
final class RawMetadata
{
    /** One partition as the node describes it: its error's name, its leader (-1 for none) and its replicas. */
    record Partition(String error, int leader, List<Integer> replicas)
    {
    }

    private RawMetadata()
    {
    }

    /** The topic's partitions by number, as the node at {@code address} describes them. */
    static Map<Integer, Partition> describe(final String address, final String topic) throws IOException
    {
        final short version = 12;
        final MetadataResponse response = (MetadataResponse)RawKafka.exchange(address,
            new MetadataRequest.Builder(List.of(topic), false).build(version));
        final Map<Integer, Partition> partitions = new TreeMap<>();
        final MetadataResponseData.MetadataResponseTopic described = response.data().topics().find(topic);
        for (final MetadataResponseData.MetadataResponsePartition partition : described.partitions())
        {
            partitions.put(partition.partitionIndex(), new Partition(Errors.forCode(partition.errorCode()).name(),
                partition.leaderId(), partition.replicaNodes().stream().sorted().toList()));
        }
        return partitions;
    }
}
