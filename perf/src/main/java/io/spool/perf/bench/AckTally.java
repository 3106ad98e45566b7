package io.spool.perf.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Counts the acks of several push consumers, each in a counter of its own that only its consumer thread writes,
 * with a release store and no atomic read-modify-write: a shared counter decremented by every listener call would
 * add a contended atomic per message to the queue side of a benchmark whose stream baseline pays none. Counters sit
 * a cache line pair apart so consumers do not share a line. The waiting thread sums them. Each counter: one writing
 * thread; {@link #total()} and {@link #awaitTotal(long, long, TimeUnit)} from any thread.
 */
final class AckTally
{
    /** Longs between two counters: 128 bytes, so that adjacent-line prefetching does not couple them either. */
    private static final int STRIDE = 16;
    private static final long POLL_NANOS = 200_000;

    private final int counters;
    private final AtomicLongArray counts;

    AckTally(final int counters)
    {
        this.counters = counters;
        this.counts = new AtomicLongArray((counters + 1) * STRIDE);
    }

    /** Called only by consumer {@code counter}'s own thread. */
    void increment(final int counter)
    {
        final int index = (counter + 1) * STRIDE;
        counts.setRelease(index, counts.getPlain(index) + 1);
    }

    long total()
    {
        long total = 0;
        for (int counter = 0; counter < counters; counter++)
        {
            total += counts.getAcquire((counter + 1) * STRIDE);
        }
        return total;
    }

    /**
     * Waits, polling every few microseconds, until the counters add up to {@code target}.
     *
     * @return whether they did before the timeout.
     */
    boolean awaitTotal(final long target, final long timeout, final TimeUnit unit)
    {
        final long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (total() < target)
        {
            if (System.nanoTime() - deadline > 0)
            {
                return false;
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
        return true;
    }
}
