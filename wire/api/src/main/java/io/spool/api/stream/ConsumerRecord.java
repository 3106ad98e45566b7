package io.spool.api.stream;

import io.spool.api.log.HeadersCodec;
import io.spool.api.log.RecordView;

import java.util.Arrays;
import java.util.Collections;
import java.util.Map;

/**
 * A copied record from the convenient poll path: safe to keep after the poll returns. A null key or value stays
 * null. Equality compares the bytes. Immutable as far as its arrays are left alone; thread-safe under that
 * condition.
 */
public record ConsumerRecord(String topic, int partition, long offset, long timestamp, byte[] key,
    Map<String, byte[]> headers, byte[] value)
{
    public static ConsumerRecord copyOf(final String topic, final int partition, final RecordView view)
    {
        return new ConsumerRecord(topic, partition, view.offset(), view.timestamp(), view.keyBytes(),
            Collections.unmodifiableMap(HeadersCodec.decode(view.buffer(), view.headersOffset(), view.headersLength())),
            view.valueBytes());
    }

    public TopicPartition topicPartition()
    {
        return new TopicPartition(topic, partition);
    }

    @Override
    public boolean equals(final Object other)
    {
        if (!(other instanceof ConsumerRecord that))
        {
            return false;
        }
        if (partition != that.partition || offset != that.offset || timestamp != that.timestamp ||
            !topic.equals(that.topic) || !Arrays.equals(key, that.key) || !Arrays.equals(value, that.value) ||
            headers.size() != that.headers.size())
        {
            return false;
        }
        for (final Map.Entry<String, byte[]> header : headers.entrySet())
        {
            if (!that.headers.containsKey(header.getKey()) ||
                !Arrays.equals(header.getValue(), that.headers.get(header.getKey())))
            {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode()
    {
        return ((topic.hashCode() * 31 + partition) * 31 + Long.hashCode(offset)) * 31 + Arrays.hashCode(value);
    }

    @Override
    public String toString()
    {
        return "ConsumerRecord[" + topic + "-" + partition + "@" + offset + ", timestamp=" + timestamp +
            ", key=" + (key == null ? "null" : key.length + " bytes") +
            ", headers=" + headers.keySet() + ", value=" + (value == null ? "null" : value.length + " bytes") + "]";
    }
}
