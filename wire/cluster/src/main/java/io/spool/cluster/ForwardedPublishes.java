package io.spool.cluster;

import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicPartition;
import io.spool.wire.server.ReplicatedPublishes;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A node's native server hands each {@code PUBLISH_SEQUENCED} batch to the partition's Raft group, and each topic
 * deletion to the metadata group, through the node's own {@link ClusterClient}, which follows the group's leader
 * wherever it is and after a failover retries on the new one. The batch keeps the native producer's id and sequence, so the partition's producer windows store it
 * once whichever node it came through and however often. Thread-safe.
 * <p>
 * Design note: batches are handed on from one thread of their own, in the order the connections' event loops gave
 * them, because the first batch to a topic waits for the metadata group to describe it, which must not hold up an
 * event loop; one thread keeps each connection's batches in their order on the way to Ratis.
 */
final class ForwardedPublishes implements ReplicatedPublishes, AutoCloseable
{
    private final ClusterClient cluster;
    private final ExecutorService forwarder = Executors.newSingleThreadExecutor(runnable ->
    {
        final Thread thread = new Thread(runnable, "spool-cluster-forward");
        thread.setDaemon(true);
        return thread;
    });

    /** Hands batches on through a client of the cluster of its own, which {@link #close} closes. */
    ForwardedPublishes(final ClusterMembers members)
    {
        this.cluster = ClusterClient.connect(members);
    }

    @Override
    public CompletableFuture<long[]> publish(final String topic, final int partition, final long producerId,
        final long sequence, final List<ProducerRecord> records)
    {
        return CompletableFuture.supplyAsync(() -> ClusterProducer.publish(cluster,
                new TopicPartition(topic, partition), producerId, sequence, records), forwarder)
            .thenCompose(confirm -> confirm)
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

    @Override
    public void deleteTopic(final String name)
    {
        cluster.deleteTopic(name);
    }

    @Override
    public void alterTopicRetention(final String name, final long retentionMillis, final long retentionBytes)
    {
        cluster.alterTopicRetention(name, retentionMillis, retentionBytes);
    }

    /** Stops handing batches on; batches handed on and not yet confirmed fail. */
    @Override
    public void close()
    {
        forwarder.shutdownNow();
        cluster.close();
    }
}
