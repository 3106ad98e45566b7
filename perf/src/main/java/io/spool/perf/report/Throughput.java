package io.spool.perf.report;

/**
 * A number of records of a given value size handled in a measured time. Immutable.
 *
 * @param name         what was measured, for example {@code "raw mapped append"}.
 * @param records      records handled.
 * @param valueBytes   value size of each record.
 * @param elapsedNanos measured time.
 */
public record Throughput(String name, long records, int valueBytes, long elapsedNanos)
{
    private static final double NANOS_PER_SECOND = 1e9;
    private static final double BYTES_PER_MB = 1e6;

    public Throughput
    {
        if (elapsedNanos <= 0)
        {
            throw new IllegalArgumentException(name + ": elapsed time must be positive, was " + elapsedNanos + " ns");
        }
    }

    public double recordsPerSec()
    {
        return records * NANOS_PER_SECOND / elapsedNanos;
    }

    /** Value bytes per second in MB (10^6 bytes); frame headers are not counted. */
    public double mbPerSec()
    {
        return recordsPerSec() * valueBytes / BYTES_PER_MB;
    }

    /** This throughput as a fraction of {@code baseline}'s, in records per second. */
    public double ratioTo(final Throughput baseline)
    {
        return recordsPerSec() / baseline.recordsPerSec();
    }
}
