package io.spool.perf.bench;

import io.spool.api.SpoolException;
import io.spool.log.ConfirmListener;
import org.HdrHistogram.AtomicHistogram;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The confirms of one benchmark producer. Its records are published in numbered batches with correlation
 * {@code batch * batchSize + i}; the confirm of a batch's last record (a log confirms in offset order) completes
 * the batch, records its publish-to-confirm latency and wakes the producer if its in-flight window held it back.
 * Clock reads are one per batch on each side.
 * <p>
 * Design note: publish times are kept per batch in an array sized for the whole run when it fits, so latencies are
 * exact even when batches to different pipelines complete out of order; an endless run (JMH) keeps a ring as large
 * as the in-flight window, exact as long as its batches complete in order (one log, or one pipeline).
 * <p>
 * Thread-safe: called by the pipelines' publish threads, read by the producer and the progress line.
 */
public final class ProducerConfirms implements ConfirmListener
{
    /** Records of an endless run. */
    public static final long UNBOUNDED = Long.MAX_VALUE;

    private static final long MAX_TRACKED_BATCHES = 1 << 24;

    private final long records;
    private final int batchSize;
    private final long batchCount;
    private final long[] publishNanosByBatch;
    private final AtomicHistogram latencyNanos;
    private final AtomicLong completedBatches = new AtomicLong();
    private final AtomicLong failedRecords = new AtomicLong();
    private volatile SpoolException firstFailure;
    private volatile Thread producer;
    private volatile boolean producerWaiting;

    /**
     * @param records            records the producer publishes, or {@link #UNBOUNDED}.
     * @param maxInFlightBatches the producer's window, see {@link #awaitInFlightAtMost}.
     * @param latencyNanos       receives the publish-to-confirm latency of every batch.
     */
    public ProducerConfirms(
        final long records, final int batchSize, final int maxInFlightBatches, final AtomicHistogram latencyNanos)
    {
        this.records = records;
        this.batchSize = batchSize;
        this.batchCount = records / batchSize + (records % batchSize == 0 ? 0 : 1);
        final long slots = batchCount <= MAX_TRACKED_BATCHES ? batchCount : Long.highestOneBit(maxInFlightBatches) * 2L;
        this.publishNanosByBatch = new long[(int)Math.max(1, slots)];
        this.latencyNanos = latencyNanos;
    }

    public long batchCount()
    {
        return batchCount;
    }

    /** Size of batch {@code batch}: full except perhaps the last. */
    public int sizeOfBatch(final long batch)
    {
        return (int)Math.min(batchSize, records - batch * batchSize);
    }

    public long firstCorrelationOfBatch(final long batch)
    {
        return batch * batchSize;
    }

    /** The calling thread is the producer: it is the one woken when a batch completes. */
    public void bindProducer()
    {
        producer = Thread.currentThread();
    }

    /** Called by the producer just before publishing batch {@code batch}. */
    public void beforePublish(final long batch, final long nowNanos)
    {
        publishNanosByBatch[(int)(batch % publishNanosByBatch.length)] = nowNanos;
    }

    /**
     * Parks the producer until at most {@code maxInFlight} of its first {@code publishedBatches} batches are still
     * unconfirmed; a completed batch wakes it, so a waiting producer spins no core.
     */
    public void awaitInFlightAtMost(final long publishedBatches, final int maxInFlight)
    {
        while (publishedBatches - completedBatches.get() > maxInFlight)
        {
            producerWaiting = true;
            if (publishedBatches - completedBatches.get() > maxInFlight)
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
    public long completedRecords()
    {
        return Math.min(records, completedBatches.get() * batchSize);
    }

    public long failedRecords()
    {
        return failedRecords.get();
    }

    /** The first append error reported, or null. */
    public SpoolException firstFailure()
    {
        return firstFailure;
    }

    private boolean isLastOfItsBatch(final long correlation)
    {
        return (correlation + 1) % batchSize == 0 || correlation + 1 == records;
    }

    private void completeBatch(final long lastCorrelation)
    {
        final long batch = lastCorrelation / batchSize;
        LatencyHistograms.record(latencyNanos,
            System.nanoTime() - publishNanosByBatch[(int)(batch % publishNanosByBatch.length)]);
        completedBatches.incrementAndGet();
        if (producerWaiting)
        {
            LockSupport.unpark(producer);
        }
    }
}
