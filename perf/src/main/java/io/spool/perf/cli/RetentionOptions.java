package io.spool.perf.cli;

import picocli.CommandLine.Option;

/**
 * A topic's retention limits, as {@code spool topics create} and {@code spool topics alter} take them; each left out
 * is null. Not thread-safe.
 */
final class RetentionOptions
{
    @Option(names = "--retention", paramLabel = "DURATION",
        converter = Quantities.MillisOrNone.class,
        description = "Delete segments whose newest record is older than this, as 7d, or none " +
            "(default: none).")
    Long retentionMillis;

    @Option(names = "--retention-bytes", paramLabel = "SIZE", converter = Quantities.BytesOrNone.class,
        description = "Delete the oldest segments past this size per partition, as 10GiB, or none (default).")
    Long retentionBytes;

    /** The age limit given, or {@code current} when it was left out. */
    long millisOr(final long current)
    {
        return retentionMillis == null ? current : retentionMillis;
    }

    /** The size limit given, or {@code current} when it was left out. */
    long bytesOr(final long current)
    {
        return retentionBytes == null ? current : retentionBytes;
    }
}
