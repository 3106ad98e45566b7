package io.spool.wire.kafka;

import io.spool.api.log.LogConfig;
import io.spool.api.stream.TopicConfig;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Kafka's names for the topic settings Spool has: retention by time and size, segment size and age, the largest
 * record and the timestamp type. Kafka's {@code cleanup.policy} is accepted only as {@code delete}, the one Spool
 * has. Of a live topic only the retention settings change ({@link #alter}). Stateless.
 */
final class TopicSettings
{
    static final String RETENTION_MS = "retention.ms";
    static final String RETENTION_BYTES = "retention.bytes";
    static final String SEGMENT_BYTES = "segment.bytes";
    static final String SEGMENT_MS = "segment.ms";
    static final String MAX_MESSAGE_BYTES = "max.message.bytes";
    static final String TIMESTAMP_TYPE = "message.timestamp.type";
    static final String CLEANUP_POLICY = "cleanup.policy";
    /** IncrementalAlterConfigs' operation codes that Spool takes; APPEND and SUBTRACT are for list settings. */
    static final byte OP_SET = 0;
    static final byte OP_DELETE = 1;

    private TopicSettings()
    {
    }

    /** The log settings for a new topic from Kafka's names; an unknown name or a bad value is refused. */
    static LogConfig apply(final LogConfig base, final Map<String, String> settings)
    {
        final LogConfig.Builder log = base.toBuilder();
        for (final Map.Entry<String, String> setting : settings.entrySet())
        {
            final String value = setting.getValue();
            try
            {
                switch (setting.getKey())
                {
                    case RETENTION_MS -> log.retentionMillis(Long.parseLong(value));
                    case RETENTION_BYTES -> log.retentionBytes(Long.parseLong(value));
                    case SEGMENT_BYTES -> log.segmentBytes(Integer.parseInt(value));
                    case SEGMENT_MS -> log.segmentRollMillis(Long.parseLong(value));
                    case MAX_MESSAGE_BYTES -> log.maxRecordBytes(Integer.parseInt(value));
                    case TIMESTAMP_TYPE -> log.logAppendTime(timestampType(value));
                    case CLEANUP_POLICY -> requireDelete(value);
                    default -> throw new InvalidConfigurationException("Spool has no topic setting \"" +
                        setting.getKey() + "\"; it has " + String.join(", ", describe(TopicConfig.of(1)).keySet()));
                }
            }
            catch (final NumberFormatException ex)
            {
                throw new InvalidConfigurationException(setting.getKey() + " must be a number, was \"" + value + "\"");
            }
        }
        try
        {
            return log.build();
        }
        catch (final IllegalArgumentException ex)
        {
            throw new InvalidConfigurationException(ex.getMessage());
        }
    }

    /**
     * A live topic's settings after IncrementalAlterConfigs' changes: SET gives {@code retention.ms} or
     * {@code retention.bytes} a value, DELETE gives it back its default; any other setting is refused, named.
     */
    static TopicConfig alter(final TopicConfig current,
        final Iterable<IncrementalAlterConfigsRequestData.AlterableConfig> changes)
    {
        final Map<String, String> settings = new HashMap<>();
        final Map<String, String> defaults = describe(TopicConfig.of(1));
        for (final IncrementalAlterConfigsRequestData.AlterableConfig change : changes)
        {
            final String name = change.name();
            if (!name.equals(RETENTION_MS) && !name.equals(RETENTION_BYTES))
            {
                throw new InvalidConfigurationException(name + (defaults.containsKey(name) ?
                    " cannot be changed on a live topic" : " is not a Spool topic setting") +
                    "; Spool changes only " + RETENTION_MS + " and " + RETENTION_BYTES + " of a topic (create a new " +
                    "topic for other settings)");
            }
            switch (change.configOperation())
            {
                case OP_SET -> settings.put(name, change.value());
                case OP_DELETE -> settings.put(name, defaults.get(name));
                default -> throw new InvalidConfigurationException(name + " takes SET or DELETE, not operation " +
                    change.configOperation() + " (APPEND and SUBTRACT are for list settings)");
            }
        }
        return current.withLog(apply(current.log(), settings));
    }

    private static boolean timestampType(final String value)
    {
        return switch (value)
        {
            case "CreateTime" -> false;
            case "LogAppendTime" -> true;
            default -> throw new InvalidConfigurationException(
                TIMESTAMP_TYPE + " must be CreateTime or LogAppendTime, was \"" + value + "\"");
        };
    }

    private static void requireDelete(final String value)
    {
        if (!value.equals("delete"))
        {
            throw new InvalidConfigurationException(CLEANUP_POLICY + " \"" + value +
                "\" is not available: Spool deletes old segments and does not compact");
        }
    }

    /** A topic's settings under Kafka's names, in a stable order. */
    static Map<String, String> describe(final TopicConfig topic)
    {
        final LogConfig log = topic.log();
        final Map<String, String> settings = new LinkedHashMap<>();
        settings.put(CLEANUP_POLICY, "delete");
        settings.put(RETENTION_MS, Long.toString(log.retentionMillis()));
        settings.put(RETENTION_BYTES, Long.toString(log.retentionBytes()));
        settings.put(SEGMENT_BYTES, Integer.toString(log.segmentBytes()));
        settings.put(SEGMENT_MS, Long.toString(log.segmentRollMillis()));
        settings.put(MAX_MESSAGE_BYTES, Integer.toString(log.maxRecordBytes()));
        settings.put(TIMESTAMP_TYPE, log.logAppendTime() ? "LogAppendTime" : "CreateTime");
        return settings;
    }
}
