package io.spool.perf.bench;

import io.spool.perf.report.ThroughputSeries;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Reads a count of records done at a fixed interval on its own daemon thread, for the report's throughput-over-time
 * chart. The measured threads only keep the counter they already keep (the one the progress line reads), so
 * sampling adds nothing to the measured loops; the samples go into arrays allocated up front, and when they are
 * full every other sample is dropped and the interval doubles, so a run of any length fits. Thread-safe: started and
 * stopped by one thread, sampled by its own.
 */
public final class ThroughputSampler implements AutoCloseable
{
    static final long FIRST_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    static final int CAPACITY = 1024;

    private final String name;
    private final LongSupplier done;
    private final long[] sampleNanos = new long[CAPACITY];
    private final long[] records = new long[CAPACITY];
    private final Thread sampler;
    private final long startNanos;
    private volatile boolean running = true;
    private long intervalNanos;
    private int samples;

    private ThroughputSampler(final String name, final LongSupplier done, final long firstIntervalNanos)
    {
        this.name = name;
        this.done = done;
        this.intervalNanos = firstIntervalNanos;
        this.startNanos = System.nanoTime();
        sampleNanos[0] = 0;
        records[0] = done.getAsLong();
        samples = 1;
        this.sampler = new Thread(this::sampleUntilStopped, "spool-throughput-sampler");
        this.sampler.setDaemon(true);
    }

    /**
     * Starts sampling now; the first sample is the count at this moment.
     *
     * @param name what the series measures, for the chart's legend.
     * @param done records done so far, read from the sampling thread.
     */
    public static ThroughputSampler start(final String name, final LongSupplier done)
    {
        return start(name, done, FIRST_INTERVAL_NANOS);
    }

    /** As {@link #start(String, LongSupplier)}, sampling every {@code firstIntervalNanos} until the arrays fill. */
    static ThroughputSampler start(final String name, final LongSupplier done, final long firstIntervalNanos)
    {
        final ThroughputSampler sampler = new ThroughputSampler(name, done, firstIntervalNanos);
        sampler.sampler.start();
        return sampler;
    }

    /** Stops sampling after one last sample, and returns the rates between the samples. */
    public ThroughputSeries stop()
    {
        close();
        return ThroughputSeries.ofCumulative(name, sampleNanos, records, samples);
    }

    @Override
    public void close()
    {
        if (!running)
        {
            return;
        }
        running = false;
        LockSupport.unpark(sampler);
        try
        {
            sampler.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        // after the join, the sampler's writes are visible here and no other thread writes the arrays
        sample(System.nanoTime());
    }

    private void sampleUntilStopped()
    {
        long next = startNanos + intervalNanos;
        while (running)
        {
            final long now = System.nanoTime();
            if (now >= next)
            {
                sample(now);
                next = now + intervalNanos;
            }
            LockSupport.parkNanos(this, next - now);
        }
    }

    private void sample(final long now)
    {
        if (samples == CAPACITY)
        {
            halveResolution();
        }
        sampleNanos[samples] = now - startNanos;
        records[samples] = done.getAsLong();
        samples++;
    }

    /** Keeps the first sample and every second one after it, and samples half as often from now on. */
    private void halveResolution()
    {
        int kept = 1;
        for (int i = 2; i < samples; i += 2)
        {
            sampleNanos[kept] = sampleNanos[i];
            records[kept] = records[i];
            kept++;
        }
        samples = kept;
        intervalNanos *= 2;
    }
}
