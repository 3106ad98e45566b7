package io.spool.perf.bench;

import io.spool.log.LogProducer;
import io.spool.log.PartitionLog;
import io.spool.log.RecordBatch;
import org.agrona.DirectBuffer;

/**
 * One benchmark producer's publishing step, shared by {@code spool bench} and the JMH benchmarks: wait for room in
 * the in-flight window, gather a batch of records with the same value (left in place: the batch notes where the
 * value lies and the ring copies it, as an application publishing from its own buffer does), read the clock once,
 * publish the batch with one claim to the next log in turn. Allocates nothing once the batch has grown to its size.
 * Not thread-safe: one producing thread.
 */
public final class BatchPublisher
{
    private final LogProducer producer;
    private final PartitionLog[] logs;
    private final int firstLog;
    private final DirectBuffer value;
    private final ProducerConfirms confirms;
    private final int maxInFlightBatches;
    private final RecordBatch batch = new RecordBatch();
    private long publishedBatches;

    /**
     * @param firstLog index in {@code logs} of the log that gets the first batch; the next batches go to the next
     *                 logs in turn, so producers starting at different logs spread evenly.
     */
    public BatchPublisher(final LogProducer producer, final PartitionLog[] logs, final int firstLog,
        final DirectBuffer value, final ProducerConfirms confirms, final int maxInFlightBatches)
    {
        this.producer = producer;
        this.logs = logs;
        this.firstLog = firstLog;
        this.value = value;
        this.confirms = confirms;
        this.maxInFlightBatches = maxInFlightBatches;
        confirms.bindProducer();
    }

    /** @throws IllegalStateException when every batch of the producer's records is already published. */
    public void publishNextBatch()
    {
        final long next = publishedBatches;
        if (next == confirms.batchCount())
        {
            throw new IllegalStateException("all " + next + " batches are already published");
        }
        confirms.awaitInFlightAtMost(next, maxInFlightBatches - 1);
        batch.clearOver(value);
        final int valueLength = value.capacity();
        for (int i = confirms.sizeOfBatch(next); i > 0; i--)
        {
            batch.addInPlace(-1, 0, 0, -1, 0, valueLength);
        }
        confirms.beforePublish(next, System.nanoTime());
        producer.publishBatch(logs[(int)((firstLog + next) % logs.length)], batch, confirms,
            confirms.firstCorrelationOfBatch(next));
        publishedBatches = next + 1;
    }

    /** Publishes every remaining batch, then waits for their confirms. */
    public void publishAllAndAwaitConfirms()
    {
        while (publishedBatches < confirms.batchCount())
        {
            publishNextBatch();
        }
        awaitAllConfirmed();
    }

    /** Waits until every published batch is confirmed or failed. */
    public void awaitAllConfirmed()
    {
        confirms.awaitInFlightAtMost(publishedBatches, 0);
    }
}
