package io.spool.perf.report;

import org.HdrHistogram.AbstractHistogram;

import java.util.ArrayList;
import java.util.List;

/**
 * A latency histogram as its percentile curve, for the report's chart: the value at 0, 90, 99, 99.9 ... percent in
 * ten steps per nine, as far as the samples reach, and the maximum. Immutable.
 *
 * @param points percentiles in increasing order, each with its latency; empty when nothing was recorded.
 */
public record LatencyDistribution(List<Point> points)
{
    /** Steps per decade of {@code 1 / (1 - percentile)}: 10 points between 90% and 99%. */
    private static final int STEPS_PER_NINE = 10;

    /** @param percentile from 0 to 100. */
    public record Point(double percentile, double micros)
    {
    }

    public LatencyDistribution
    {
        points = List.copyOf(points);
    }

    public static LatencyDistribution ofNanos(final AbstractHistogram histogram)
    {
        final List<Point> points = new ArrayList<>();
        final long samples = histogram.getTotalCount();
        if (samples == 0)
        {
            return new LatencyDistribution(points);
        }
        // stop where a percentile would name fewer than one sample above it: the maximum says the rest
        for (int step = 0; Math.pow(10, (double)step / STEPS_PER_NINE) <= samples; step++)
        {
            final double percentile = 100.0 * (1 - Math.pow(10, -(double)step / STEPS_PER_NINE));
            points.add(new Point(percentile, histogram.getValueAtPercentile(percentile) / 1_000.0));
        }
        points.add(new Point(100.0, histogram.getMaxValue() / 1_000.0));
        return new LatencyDistribution(points);
    }
}
