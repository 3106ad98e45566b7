package io.spool.perf.bench;

import io.spool.log.ConfirmListener;
import io.spool.log.SpoolException;
import org.HdrHistogram.AtomicHistogram;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The confirms of one benchmark producer. Its records are published in numbered batches with correlation
 * {@code batch * batchSize + i}; the confirm of a batch's last record (confirms come in offset order) completes
 * the batch, records its publish-to-confirm latency and lets the producer publish more if it was held back by its
 * in-flight window. Clock reads are one per batch on each side.
 * <p>
 * Thread-safe: called by the pipelines' publish threads, read by the producer and the progress line.
 */
final class ProducerConfirms implements ConfirmListener
{
    private final long records;
    private final int batchSize;
    private final long[] publishNanosByBatch;
    private final AtomicHistogram latencyNanos;
    private final AtomicLong confirmedBatches = new AtomicLong();
    private final AtomicLong failedRecords = new AtomicLong();
    private volatile SpoolException firstFailure;
    private volatile Thread producer;
    private volatile boolean producerWaiting;

    ProducerConfirms(final long records, final int batchSize, final AtomicHistogram latencyNanos)
    {
        this.records = records;
        this.batchSize = batchSize;
        this.publishNanosByBatch = new long[Math.toIntExact(batchCount(records, batchSize))];
        this.latencyNanos = latencyNanos;
    }

    static long batchCount(final long records, final int batchSize)
    {
        return (records + batchSize - 1) / batchSize;
    }

    int batchCount()
    {
        return publishNanosByBatch.length;
    }

    /** Size of batch {@code batch}: full except perhaps the last. */
    int sizeOfBatch(final int batch)
    {
        return (int)Math.min(batchSize, records - (long)batch * batchSize);
    }

    long firstCorrelationOfBatch(final int batch)
    {
        return (long)batch * batchSize;
    }

    /** The calling thread is the producer: it is the one woken when a batch completes. */
    void bindProducer()
    {
        producer = Thread.currentThread();
    }

    /** Called by the producer just before publishing batch {@code batch}. */
    void beforePublish(final int batch, final long nowNanos)
    {
        publishNanosByBatch[batch] = nowNanos;
    }

    /**
     * Parks the producer until at most {@code maxUnconfirmed} of its first {@code publishedBatches} batches are
     * unconfirmed; a confirm wakes it, so a waiting producer spins no core.
     */
    void awaitUnconfirmedAtMost(final long publishedBatches, final int maxUnconfirmed)
    {
        while (publishedBatches - confirmedBatches.get() > maxUnconfirmed)
        {
            producerWaiting = true;
            if (publishedBatches - confirmedBatches.get() > maxUnconfirmed)
            {
                LockSupport.park(this);
            }
            producerWaiting = false;
        }
    }

    @Override
    public void onConfirmed(final long correlation, final long offset)
    {
        if (isLastOfItsBatch(correlation))
        {
            completeBatch(correlation);
        }
    }

    @Override
    public void onFailed(final long correlation, final SpoolException error)
    {
        failedRecords.incrementAndGet();
        if (firstFailure == null)
        {
            firstFailure = error;
        }
        if (isLastOfItsBatch(correlation))
        {
            completeBatch(correlation);
        }
    }

    /** Records confirmed or failed so far, counted by whole batches. */
    long completedRecords()
    {
        return Math.min(records, confirmedBatches.get() * batchSize);
    }

    long failedRecords()
    {
        return failedRecords.get();
    }

    /** The first append error reported, or null. */
    SpoolException firstFailure()
    {
        return firstFailure;
    }

    private boolean isLastOfItsBatch(final long correlation)
    {
        return (correlation + 1) % batchSize == 0 || correlation + 1 == records;
    }

    private void completeBatch(final long lastCorrelation)
    {
        final long latency = System.nanoTime() - publishNanosByBatch[(int)(lastCorrelation / batchSize)];
        LatencyHistograms.record(latencyNanos, latency);
        confirmedBatches.incrementAndGet();
        if (producerWaiting)
        {
            LockSupport.unpark(producer);
        }
    }
}
