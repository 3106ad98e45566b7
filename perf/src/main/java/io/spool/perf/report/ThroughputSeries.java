package io.spool.perf.report;

import java.util.Arrays;

/**
 * Records per second over the time of a run, for the report's throughput chart: each point is a rate over the
 * interval that ends at its time. Immutable (the arrays are copied in and out).
 *
 * @param name          what was measured, for example {@code "spool ingest pipeline"}.
 * @param seconds       end of each interval, in seconds from the start of the measured run, increasing.
 * @param recordsPerSec the rate over each interval.
 */
public record ThroughputSeries(String name, double[] seconds, double[] recordsPerSec)
{
    public ThroughputSeries
    {
        if (seconds.length != recordsPerSec.length)
        {
            throw new IllegalArgumentException(name + ": " + seconds.length + " times for " + recordsPerSec.length +
                " rates");
        }
        seconds = seconds.clone();
        recordsPerSec = recordsPerSec.clone();
    }

    /**
     * The rates between cumulative counts sampled at increasing times.
     *
     * @param sampleNanos  when each count was read, from the start of the run; the first is the start itself.
     * @param records      records done by then, never decreasing.
     * @param samples      how many of the array entries are samples.
     */
    public static ThroughputSeries ofCumulative(final String name, final long[] sampleNanos, final long[] records,
        final int samples)
    {
        final int points = Math.max(0, samples - 1);
        final double[] seconds = new double[points];
        final double[] rates = new double[points];
        for (int i = 1; i < samples; i++)
        {
            final long intervalNanos = Math.max(1, sampleNanos[i] - sampleNanos[i - 1]);
            seconds[i - 1] = sampleNanos[i] / 1e9;
            rates[i - 1] = (records[i] - records[i - 1]) * 1e9 / intervalNanos;
        }
        return new ThroughputSeries(name, seconds, rates);
    }

    @Override
    public double[] seconds()
    {
        return seconds.clone();
    }

    @Override
    public double[] recordsPerSec()
    {
        return recordsPerSec.clone();
    }

    public int points()
    {
        return seconds.length;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof ThroughputSeries that && name.equals(that.name) &&
            Arrays.equals(seconds, that.seconds) && Arrays.equals(recordsPerSec, that.recordsPerSec);
    }

    @Override
    public int hashCode()
    {
        return 31 * (31 * name.hashCode() + Arrays.hashCode(seconds)) + Arrays.hashCode(recordsPerSec);
    }

    @Override
    public String toString()
    {
        return "ThroughputSeries[" + name + ", " + seconds.length + " points]";
    }
}
