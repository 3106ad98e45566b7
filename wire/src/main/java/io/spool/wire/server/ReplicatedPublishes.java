package io.spool.wire.server;

import io.spool.api.stream.ProducerRecord;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Where a cluster node's native server sends the batches of {@code PUBLISH_SEQUENCED}: through the partition's
 * replication, which stores a batch once per producer id and sequence and confirms it once a majority holds it; and
 * the topic deletions it is asked for, which every node of the cluster applies. The cluster module implements it, so
 * that this module knows nothing of consensus. Implementations are thread-safe; {@link #publish} must not block the
 * calling thread (a connection's event loop).
 */
public interface ReplicatedPublishes
{
    /**
     * Publishes a batch to a partition.
     *
     * @param records    the batch, its topic and partition fields set to {@code topic} and {@code partition}.
     * @return completes with the offset of each record once the batch is confirmed (a retry of a batch stored before
     *         completes with the offsets it got then), or with the reason it was refused.
     */
    CompletableFuture<long[]> publish(String topic, int partition, long producerId, long sequence,
        List<ProducerRecord> records);

    /**
     * Deletes a replicated topic on every node of the cluster, and returns once the cluster has committed it; it may
     * block (it runs on the server's admin executor).
     *
     * @throws io.spool.api.stream.UnknownTopicException when the cluster has no topic of that name.
     */
    void deleteTopic(String name);

    /**
     * Changes a replicated topic's retention limits on every node of the cluster, and returns once the cluster has
     * committed it; it may block.
     *
     * @throws io.spool.api.stream.UnknownTopicException when the cluster has no topic of that name.
     */
    void alterTopicRetention(String name, long retentionMillis, long retentionBytes);
}
