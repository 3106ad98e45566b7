package io.spool.api.stream;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Publishes records; each future completes with where its record landed once the engine confirms it under the
 * topic's durability, or exceptionally with why it was refused. Keyed records go to the partition of the key
 * (Kafka's murmur2), records without a key to the partitions in turn. Not thread-safe: one producer per publishing
 * thread.
 */
public interface Producer extends AutoCloseable
{
    /** Publishes a record by key (or in turn for a null key). */
    CompletableFuture<PublishResult> send(String topic, byte[] key, byte[] value);

    /** Publishes a record with its headers, timestamp and partition, when it names them. */
    CompletableFuture<PublishResult> send(ProducerRecord record);

    /** Publishes the records in order; the future completes once every one is confirmed, with their results. */
    CompletableFuture<List<PublishResult>> sendBatch(List<ProducerRecord> records);

    /** Waits for what was sent to be confirmed or failed, then releases what the producer holds. */
    @Override
    void close();
}
