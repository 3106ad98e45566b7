package io.spool;

import io.spool.api.queue.OverflowPolicy;
import io.spool.api.queue.QueueFullException;
import io.spool.api.stream.Producer;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.PublishResult;
import io.spool.queue.Router;
import io.spool.stream.StreamProducer;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Publishes to topics through the embedded engine as a {@link StreamProducer} does, with the subscriptions'
 * overflow limits in force: a record for a topic one of whose subscriptions is full under
 * {@link OverflowPolicy#REJECT_PUBLISH} or {@link OverflowPolicy#REJECT_PUBLISH_DLX} is refused with a
 * {@link QueueFullException} by the engine's {@link io.spool.queue.PublishGate}, the producer's signal to back off,
 * and nothing is stored (under the second policy the
 * refused record goes to the subscription's dead-letter topic). A keyless record in a message group goes to the
 * partition its group id names ({@link Router#placedByGroup}), so that a group lives in one partition.
 * {@code spool.streams().newProducer()} publishes without either. Not thread-safe: one per publishing thread.
 */
public final class SpoolProducer implements Producer
{
    private final StreamProducer producer;
    private final Router router;

    SpoolProducer(final StreamProducer producer, final Router router)
    {
        this.producer = producer;
        this.router = router;
    }

    /**
     * Publishes a copy of the arrays by key (or spread) and completes with where it landed.
     *
     * @throws QueueFullException when a subscription of the topic refuses it.
     */
    @Override
    public CompletableFuture<PublishResult> send(final String topic, final byte[] key, final byte[] value)
    {
        return send(ProducerRecord.of(topic, key, value));
    }

    /**
     * Publishes one record and completes with where it landed; see {@link StreamProducer#send(ProducerRecord)}.
     *
     * @throws QueueFullException when a subscription of the topic refuses it.
     */
    @Override
    public CompletableFuture<PublishResult> send(final ProducerRecord record)
    {
        final ProducerRecord placed = router.placedByGroup(record);
        router.gate().admit(placed);
        return producer.send(placed);
    }

    /**
     * Publishes records (to any topics and partitions) and completes with every record's place, in the order given;
     * see {@link StreamProducer#sendBatch(List)}. The batch is refused whole when a subscription of any of its
     * topics is full: nothing is stored, and under {@link OverflowPolicy#REJECT_PUBLISH_DLX} each record for a full
     * subscription is dead-lettered.
     *
     * @throws QueueFullException naming the first full subscription met.
     */
    @Override
    public CompletableFuture<List<PublishResult>> sendBatch(final List<ProducerRecord> records)
    {
        final List<ProducerRecord> placed = records.stream().map(router::placedByGroup).toList();
        router.gate().admitAll(placed);
        return producer.sendBatch(placed);
    }

    /** Nothing to release: each record was handed to the log when sent, and its future completes on its own. */
    @Override
    public void close()
    {
    }
}
