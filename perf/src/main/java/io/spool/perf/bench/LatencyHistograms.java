package io.spool.perf.bench;

import org.HdrHistogram.AtomicHistogram;

import java.util.concurrent.TimeUnit;

/**
 * The latency histograms of the benchmarks: nanoseconds up to a minute, three significant digits, fixed size so
 * that recording allocates nothing. Stateless.
 */
public final class LatencyHistograms
{
    static final long HIGHEST_TRACKABLE_NANOS = TimeUnit.MINUTES.toNanos(1);

    private LatencyHistograms()
    {
    }

    /** Safe to record into from several threads at once (several pipelines confirm in parallel). */
    public static AtomicHistogram newHistogram()
    {
        return new AtomicHistogram(HIGHEST_TRACKABLE_NANOS, 3);
    }

    /** Records {@code nanos}, clamped into the trackable range instead of throwing. */
    static void record(final AtomicHistogram histogram, final long nanos)
    {
        histogram.recordValue(Math.min(Math.max(0, nanos), HIGHEST_TRACKABLE_NANOS));
    }
}
