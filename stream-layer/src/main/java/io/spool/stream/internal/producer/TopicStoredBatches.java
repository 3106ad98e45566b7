package io.spool.stream.internal.producer;

import io.spool.api.log.OffsetOutOfRangeException;
import io.spool.api.log.RecordView;
import io.spool.api.stream.TopicPartition;
import io.spool.log.LogReader;
import io.spool.stream.StoredBatches;
import io.spool.stream.Topic;
import io.spool.stream.TopicRegistry;

import java.util.ArrayDeque;
import java.util.zip.CRC32C;

/**
 * {@link StoredBatches} over the engine's topics: a batch is looked for by reading the partition from the lowest
 * offset it can have, a window of its record count at a time. Runs when the engine opens, over the batches that
 * were in flight when it stopped, so it reads only the last records of a partition. Thread-safe.
 */
public final class TopicStoredBatches implements StoredBatches
{
    private final TopicRegistry topics;

    public TopicStoredBatches(final TopicRegistry topics)
    {
        this.topics = topics;
    }

    @Override
    public long endOffset(final TopicPartition partition)
    {
        return Math.max(0, topics.endOffset(partition));
    }

    @Override
    public long find(final TopicPartition partition, final long from, final int recordCount, final int fingerprint)
    {
        final Topic topic = topics.topicOrNull(partition.topic());
        if (topic == null || partition.partition() >= topic.partitionCount() || recordCount < 1)
        {
            return -1;
        }
        final ArrayDeque<StoredRecord> window = new ArrayDeque<>(recordCount);
        try (LogReader reader = topic.partition(partition.partition()).newReader())
        {
            reader.seek(Math.max(from, topic.partition(partition.partition()).startOffset()));
            for (RecordView view = reader.next(); view != null; view = reader.next())
            {
                if (!window.isEmpty() && window.getLast().offset + 1 != view.offset())
                {
                    window.clear();
                }
                window.addLast(new StoredRecord(view.offset(), view.keyLength() < 0 ? null : view.keyBytes(),
                    view.valueLength() < 0 ? null : view.valueBytes()));
                if (window.size() > recordCount)
                {
                    window.removeFirst();
                }
                if (window.size() == recordCount && fingerprint(window) == fingerprint)
                {
                    return window.getFirst().offset;
                }
            }
        }
        catch (final OffsetOutOfRangeException gone)
        {
            return -1;
        }
        return -1;
    }

    private static int fingerprint(final ArrayDeque<StoredRecord> records)
    {
        final CRC32C crc = new CRC32C();
        for (final StoredRecord record : records)
        {
            StoredBatches.add(crc, record.key);
            StoredBatches.add(crc, record.value);
        }
        return (int)crc.getValue();
    }

    private record StoredRecord(long offset, byte[] key, byte[] value)
    {
    }
}
