package io.spool.stream.internal.topic;

import io.spool.api.log.Durability;
import io.spool.api.log.LogConfig;
import io.spool.api.stream.InvalidTopicException;
import io.spool.api.stream.TopicConfig;
import io.spool.stream.CorruptFileException;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A topic's settings as the topic metadata file keeps them: named string values, so that a file written before a
 * setting existed still reads, the missing setting keeping its default.
 */
public final class TopicSettings
{
    static final String SEGMENT_BYTES = "segment.bytes";
    static final String INDEX_INTERVAL_BYTES = "index.interval.bytes";
    static final String MAX_RECORD_BYTES = "max.record.bytes";
    static final String SEGMENT_ROLL_MS = "segment.roll.ms";
    static final String RETENTION_MS = "retention.ms";
    static final String RETENTION_BYTES = "retention.bytes";
    static final String DURABILITY = "durability";
    static final String DEDUP_WINDOW_MS = "dedup.window.ms";
    static final String DEDUP_BY_CONTENT = "dedup.by.content";
    static final String LOG_APPEND_TIME = "log.append.time";

    /** The settings a live topic takes a change of; every other one is fixed when the topic is created. */
    public static final Set<String> CHANGEABLE = Set.of(RETENTION_MS, RETENTION_BYTES);

    private TopicSettings()
    {
    }

    /**
     * @throws InvalidTopicException naming the first fixed setting (in name order) that {@code changed} gives
     *                               another value than {@code current}, or the partition count
     */
    public static void requireOnlyChangeable(final String topic, final TopicConfig current, final TopicConfig changed)
    {
        if (changed.partitions() != current.partitions())
        {
            throw fixed(topic, "partitions", current.partitions(), changed.partitions());
        }
        final Map<String, String> was = toSettings(current);
        final Map<String, String> becomes = new TreeMap<>(toSettings(changed));
        for (final Map.Entry<String, String> setting : becomes.entrySet())
        {
            final String name = setting.getKey();
            if (!CHANGEABLE.contains(name) && !setting.getValue().equals(was.get(name)))
            {
                throw fixed(topic, name, was.get(name), setting.getValue());
            }
        }
    }

    private static InvalidTopicException fixed(final String topic, final String setting, final Object was,
        final Object becomes)
    {
        return new InvalidTopicException(setting + " cannot be changed on a live topic; topic \"" + topic +
            "\" keeps " + was + " (asked for " + becomes + "). Only " + new TreeSet<>(CHANGEABLE) +
            " can change: create a new topic with the other settings and copy the records to it");
    }

    public static Map<String, String> toSettings(final TopicConfig config)
    {
        final LogConfig log = config.log();
        final Map<String, String> settings = new HashMap<>();
        settings.put(SEGMENT_BYTES, Integer.toString(log.segmentBytes()));
        settings.put(INDEX_INTERVAL_BYTES, Integer.toString(log.indexIntervalBytes()));
        settings.put(MAX_RECORD_BYTES, Integer.toString(log.maxRecordBytes()));
        settings.put(SEGMENT_ROLL_MS, Long.toString(log.segmentRollMillis()));
        settings.put(RETENTION_MS, Long.toString(log.retentionMillis()));
        settings.put(RETENTION_BYTES, Long.toString(log.retentionBytes()));
        settings.put(DURABILITY, encode(log.durability()));
        settings.put(DEDUP_WINDOW_MS, Long.toString(log.dedupWindowMillis()));
        settings.put(DEDUP_BY_CONTENT, Boolean.toString(config.dedupByContent()));
        settings.put(LOG_APPEND_TIME, Boolean.toString(log.logAppendTime()));
        return settings;
    }

    /** Settings absent from an older file keep their defaults. */
    public static TopicConfig fromSettings(final int partitions, final Map<String, String> settings)
    {
        final LogConfig.Builder builder = LogConfig.DEFAULT.toBuilder();
        final String segmentBytes = settings.get(SEGMENT_BYTES);
        if (segmentBytes != null)
        {
            builder.segmentBytes(Integer.parseInt(segmentBytes));
        }
        final String indexInterval = settings.get(INDEX_INTERVAL_BYTES);
        if (indexInterval != null)
        {
            builder.indexIntervalBytes(Integer.parseInt(indexInterval));
        }
        final String maxRecord = settings.get(MAX_RECORD_BYTES);
        if (maxRecord != null)
        {
            builder.maxRecordBytes(Integer.parseInt(maxRecord));
        }
        final String roll = settings.get(SEGMENT_ROLL_MS);
        if (roll != null)
        {
            builder.segmentRollMillis(Long.parseLong(roll));
        }
        final String retentionMs = settings.get(RETENTION_MS);
        if (retentionMs != null)
        {
            builder.retentionMillis(Long.parseLong(retentionMs));
        }
        final String retentionBytes = settings.get(RETENTION_BYTES);
        if (retentionBytes != null)
        {
            builder.retentionBytes(Long.parseLong(retentionBytes));
        }
        final String durability = settings.get(DURABILITY);
        if (durability != null)
        {
            builder.durability(decode(durability));
        }
        final String dedupWindow = settings.get(DEDUP_WINDOW_MS);
        if (dedupWindow != null)
        {
            builder.dedupWindowMillis(Long.parseLong(dedupWindow));
        }
        builder.logAppendTime(Boolean.parseBoolean(settings.get(LOG_APPEND_TIME)));
        return new TopicConfig(partitions, builder.build(), Boolean.parseBoolean(settings.get(DEDUP_BY_CONTENT)));
    }

    private static String encode(final Durability durability)
    {
        return switch (durability.kind())
        {
            case NONE -> "none";
            case EVERY_BATCH -> "every-batch";
            case INTERVAL -> "interval:" + durability.intervalMillis();
        };
    }

    private static Durability decode(final String durability)
    {
        if (durability.equals("none"))
        {
            return Durability.NONE;
        }
        if (durability.equals("every-batch"))
        {
            return Durability.EVERY_BATCH;
        }
        if (durability.startsWith("interval:"))
        {
            return Durability.interval(Long.parseLong(durability.substring("interval:".length())));
        }
        throw new CorruptFileException("unknown durability \"" + durability + "\" in topic metadata");
    }
}
