package io.spool.perf.report;

import org.HdrHistogram.AbstractHistogram;

/**
 * Percentiles of a latency histogram recorded in nanoseconds, in microseconds. Immutable.
 *
 * @param samples number of recorded latencies; 0 leaves every percentile at 0.
 */
public record LatencySummary(long samples, double p50Micros, double p99Micros, double p999Micros, double maxMicros)
{
    private static final double NANOS_PER_MICRO = 1_000.0;

    public static LatencySummary ofNanos(final AbstractHistogram histogram)
    {
        if (histogram.getTotalCount() == 0)
        {
            return new LatencySummary(0, 0, 0, 0, 0);
        }
        return new LatencySummary(
            histogram.getTotalCount(),
            histogram.getValueAtPercentile(50.0) / NANOS_PER_MICRO,
            histogram.getValueAtPercentile(99.0) / NANOS_PER_MICRO,
            histogram.getValueAtPercentile(99.9) / NANOS_PER_MICRO,
            histogram.getMaxValue() / NANOS_PER_MICRO);
    }
}
