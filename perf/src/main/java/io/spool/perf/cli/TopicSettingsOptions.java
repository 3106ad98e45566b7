package io.spool.perf.cli;

import io.spool.api.log.Durability;
import io.spool.api.log.LogConfig;
import io.spool.api.stream.InvalidTopicException;
import io.spool.api.stream.TopicConfig;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Every setting of a topic {@code spool topics create} takes; each left out keeps the engine's default. Not
 * thread-safe.
 */
final class TopicSettingsOptions
{
    /** A segment roll of {@code none}: segments roll by size only. */
    static final long NO_ROLL = Long.MAX_VALUE;

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--partitions", defaultValue = "1", paramLabel = "N",
        description = "Partitions of the topic (default: ${DEFAULT-VALUE}).")
    int partitions;

    @Option(names = "--segment-bytes", paramLabel = "SIZE", converter = Quantities.Bytes.class,
        description = "Size of each segment file, as 64MiB (default: 64MiB).")
    Long segmentBytes;

    @Option(names = "--index-interval-bytes", paramLabel = "SIZE", converter = Quantities.Bytes.class,
        description = "Bytes of records between two entries of the offset index (default: 4KiB).")
    Long indexIntervalBytes;

    @Option(names = "--max-record-bytes", paramLabel = "SIZE", converter = Quantities.Bytes.class,
        description = "Largest record the topic takes (default: 1MiB).")
    Long maxRecordBytes;

    @Option(names = "--segment-roll", paramLabel = "DURATION", converter = RollConverter.class,
        description = "Start a new segment when the current one is this old, as 1d, or none (default: none).")
    Long segmentRollMillis;

    @Mixin
    RetentionOptions retention;

    @Option(names = "--durability", paramLabel = "POLICY", converter = DurabilityConverter.class,
        description = "When appends are forced to disk: none (default), every-batch or interval:MS.")
    Durability durability;

    @Option(names = "--dedup-window", paramLabel = "DURATION", converter = Quantities.Millis.class,
        description = "How long a dedup id is remembered (default: 5m).")
    Long dedupWindowMillis;

    @Option(names = "--dedup-by-content",
        description = "Deduplicate a record without a dedup id by a hash of its key and value.")
    boolean dedupByContent;

    /**
     * @throws ParameterException naming the setting when a value is out of range, before anything is opened.
     */
    TopicConfig config()
    {
        final LogConfig.Builder log = LogConfig.builder();
        try
        {
            if (segmentBytes != null)
            {
                log.segmentBytes(intOf("--segment-bytes", segmentBytes));
            }
            if (indexIntervalBytes != null)
            {
                log.indexIntervalBytes(intOf("--index-interval-bytes", indexIntervalBytes));
            }
            if (maxRecordBytes != null)
            {
                log.maxRecordBytes(intOf("--max-record-bytes", maxRecordBytes));
            }
            if (segmentRollMillis != null)
            {
                log.segmentRollMillis(segmentRollMillis);
            }
            log.retentionMillis(retention.millisOr(LogConfig.DEFAULT.retentionMillis()));
            log.retentionBytes(retention.bytesOr(LogConfig.DEFAULT.retentionBytes()));
            if (durability != null)
            {
                log.durability(durability);
            }
            if (dedupWindowMillis != null)
            {
                log.dedupWindowMillis(dedupWindowMillis);
            }
            return new TopicConfig(partitions, log.build(), dedupByContent);
        }
        catch (final IllegalArgumentException | InvalidTopicException ex)
        {
            throw new ParameterException(spec.commandLine(), ex.getMessage());
        }
    }

    private int intOf(final String option, final long bytes)
    {
        if (bytes > Integer.MAX_VALUE)
        {
            throw new ParameterException(spec.commandLine(), option + " must be below 2GiB, was " +
                Quantities.formatBytes(bytes));
        }
        return (int)bytes;
    }

    /** A duration, or {@code none}: segments roll by size only. */
    static final class RollConverter implements ITypeConverter<Long>
    {
        @Override
        public Long convert(final String value)
        {
            return value.equalsIgnoreCase("none") ? NO_ROLL : Quantities.parseMillis(value);
        }
    }
}
