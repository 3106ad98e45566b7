package io.spool.perf.bench;

import io.spool.perf.baseline.RawMappedAppendBaseline;
import io.spool.perf.baseline.RawMappedScanBaseline;
import io.spool.perf.report.Throughput;

import java.nio.file.Path;

import static io.spool.api.log.RecordDescriptor.align;
import static io.spool.api.log.RecordDescriptor.frameLength;

/**
 * The raw baselines inside a {@code spool bench} run, so every Spool figure has its yardstick from the same process
 * and the same moment of a noisy machine: the timed raw append, and a scan over what it appended for
 * {@link ReplayBench} to time beside the replay. Not thread-safe.
 */
public final class RawBaselineRun implements AutoCloseable
{
    public static final String RAW_APPEND = "raw mapped append";
    public static final String RAW_SCAN = "raw mapped scan";

    /**
     * Fewest frame bytes a baseline is measured over: a short benchmark (a few thousand fsynced records) would
     * otherwise time a cold loop, and the yardstick is a rate, not a count. 256 MiB is 1.9 M 100-byte records.
     */
    private static final long MIN_BYTES = 256L * 1024 * 1024;

    private final long records;
    private final int valueLength;
    private final int batchSize;
    private final RawMappedAppendBaseline append;
    private final RawMappedAppendBaseline.Pages pages;

    /**
     * Pre-allocates room in {@code directory} for {@code records} records on prepared pages; nothing is measured yet.
     *
     * @param batchSize records stamped with one clock read, as the pipeline stamps a batch.
     */
    public RawBaselineRun(
        final Path directory, final long records, final byte[] value, final int segmentBytes, final int batchSize)
    {
        this(directory, records, value, segmentBytes, batchSize, RawMappedAppendBaseline.Pages.PREPARED);
    }

    /**
     * Pre-allocates room in {@code directory} for {@code records} records, its pages readied as {@code pages} says;
     * nothing is measured yet.
     *
     * @param batchSize records stamped with one clock read, as the pipeline stamps a batch.
     */
    public RawBaselineRun(final Path directory, final long records, final byte[] value, final int segmentBytes,
        final int batchSize, final RawMappedAppendBaseline.Pages pages)
    {
        this.records = records;
        this.valueLength = value.length;
        this.batchSize = batchSize;
        this.pages = pages;
        this.append = new RawMappedAppendBaseline(directory, segmentBytes,
            RawMappedAppendBaseline.segmentsFor(records, value.length, segmentBytes), value, pages);
    }

    /** Records to measure a baseline over, for a benchmark of {@code benchmarkRecords} records. */
    public static long baselineRecords(final long benchmarkRecords, final int valueLength)
    {
        final long frameBytes = align(frameLength(-1, 0, valueLength));
        return Math.max(benchmarkRecords, (MIN_BYTES + frameBytes - 1) / frameBytes);
    }

    /** Appends all the records once, timed. */
    public Throughput measureAppend()
    {
        final long start = System.nanoTime();
        long remaining = records;
        while (remaining > 0)
        {
            final int count = (int)Math.min(batchSize, remaining);
            append.append(count, System.currentTimeMillis());
            remaining -= count;
        }
        final long elapsed = System.nanoTime() - start;
        return new Throughput(appendName(pages), records, valueLength, Math.max(1, elapsed));
    }

    /** What a raw append on {@code pages} is called in a report; prepared pages are the default yardstick. */
    public static String appendName(final RawMappedAppendBaseline.Pages pages)
    {
        return switch (pages)
        {
            case PREPARED -> RAW_APPEND;
            case ALLOCATED -> RAW_APPEND + " on allocated pages";
            case FRESH -> RAW_APPEND + " on fresh pages";
        };
    }

    public long records()
    {
        return records;
    }

    /** Ends the appending and maps the appended segments for scanning; the caller closes the scan. */
    public RawMappedScanBaseline openScan()
    {
        append.close();
        return new RawMappedScanBaseline(append.segmentFiles());
    }

    @Override
    public void close()
    {
        append.close();
    }
}
