package io.spool.api.stream;

import io.spool.api.log.LogConfig;

/**
 * A topic's partition count, the log settings every one of its partitions uses (segment size, retention by
 * age and size, durability, dedup window), and whether a record without a dedup id is deduplicated by a hash of
 * its content. Immutable, thread-safe.
 */
public record TopicConfig(int partitions, LogConfig log, boolean dedupByContent)
{
    public static final int MAX_PARTITIONS = 10_000;

    public TopicConfig
    {
        if (partitions < 1 || partitions > MAX_PARTITIONS)
        {
            throw new InvalidTopicException(
                "partition count must be between 1 and " + MAX_PARTITIONS + ", was " + partitions);
        }
        if (log == null)
        {
            throw new InvalidTopicException("log settings must not be null");
        }
    }

    /** Records carry no content-hash dedup unless {@link #withDedupByContent} asks for it. */
    public TopicConfig(final int partitions, final LogConfig log)
    {
        this(partitions, log, false);
    }

    /** {@code partitions} partitions with the default log settings. */
    public static TopicConfig of(final int partitions)
    {
        return new TopicConfig(partitions, LogConfig.DEFAULT);
    }

    public TopicConfig withLog(final LogConfig newLog)
    {
        return new TopicConfig(partitions, newLog, dedupByContent);
    }

    /**
     * These settings with other retention limits, the only settings a live topic takes a change of (see
     * {@code StreamEngine.alterTopic}).
     *
     * @param retentionMillis see {@link LogConfig#retentionMillis()}; -1 keeps records forever
     * @param retentionBytes  see {@link LogConfig#retentionBytes()}; -1 is unbounded
     * @throws IllegalArgumentException when a limit is out of range
     */
    public TopicConfig withRetention(final long retentionMillis, final long retentionBytes)
    {
        return withLog(log.toBuilder().retentionMillis(retentionMillis).retentionBytes(retentionBytes).build());
    }

    /** Records published without a dedup id are deduplicated by a 128-bit hash of their key and value. */
    public TopicConfig withDedupByContent(final boolean byContent)
    {
        return new TopicConfig(partitions, log, byContent);
    }
}
