package io.spool.cluster;

import io.spool.stream.ProducerRecord;
import io.spool.stream.TopicPartition;
import io.spool.wire.server.ReplicatedPublishes;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A node's native server hands each {@code PUBLISH_SEQUENCED} batch to the partition's Raft group through the
 * node's own {@link ClusterClient}, which follows the group's leader wherever it is and after a failover retries on
 * the new one. The batch keeps the native producer's id and sequence, so the partition's producer windows store it
 * once whichever node it came through and however often. Thread-safe.
 */
final class ForwardedPublishes implements ReplicatedPublishes
{
    private final ClusterClient cluster;

    ForwardedPublishes(final ClusterClient cluster)
    {
        this.cluster = cluster;
    }

    @Override
    public CompletableFuture<long[]> publish(final String topic, final int partition, final long producerId,
        final long sequence, final List<ProducerRecord> records)
    {
        return ClusterProducer.publish(cluster, new TopicPartition(topic, partition), producerId, sequence, records)
            .thenApply(confirm ->
            {
                final long[] offsets = new long[confirm.count()];
                for (int i = 0; i < offsets.length; i++)
                {
                    offsets[i] = confirm.baseOffset() + i;
                }
                return offsets;
            });
    }
}
