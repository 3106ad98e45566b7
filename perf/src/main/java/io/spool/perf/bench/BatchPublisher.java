package io.spool.perf.bench;

import io.spool.log.LogProducer;
import io.spool.log.PartitionLog;
import io.spool.log.RecordBatch;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One benchmark producer's publishing step, shared by {@code spool bench} and the JMH benchmarks: wait for room in
 * the in-flight window, gather a batch of records with the same value, read the clock once, publish the batch with
 * one claim to the next log in turn. Allocates nothing once the batch buffer has grown to its size.
 * Not thread-safe: one producing thread.
 */
public final class BatchPublisher
{
    private static final DirectBuffer EMPTY = new UnsafeBuffer(new byte[0]);

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
        batch.clear();
        final int valueLength = value.capacity();
        for (int i = confirms.sizeOfBatch(next); i > 0; i--)
        {
            batch.add(-1, EMPTY, 0, -1, EMPTY, 0, 0, value, 0, valueLength);
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
