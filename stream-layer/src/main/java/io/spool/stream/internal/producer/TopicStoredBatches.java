package io.spool.stream.internal.producer;

import io.spool.api.log.OffsetOutOfRangeException;
import io.spool.api.log.RecordView;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicPartition;
import io.spool.log.LogReader;
import io.spool.log.PartitionLog;
import io.spool.stream.StoredBatches;
import io.spool.stream.Topic;
import io.spool.stream.TopicRegistry;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * {@link StoredBatches} over the engine's topics: a batch is looked for by reading the partition from the lowest
 * offset it can have, a window of its record count at a time; the part of one a crash cut short, by comparing the
 * records before the end the log had then with the retried batch's. Runs when the engine opens, over the batches
 * that were in flight when it stopped, and for the retry of one of them, so it reads only the last records of a
 * partition. Thread-safe.
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
                window.addLast(stored(view));
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

    @Override
    public long storedPrefix(final TopicPartition partition, final long from, final long end,
        final List<ProducerRecord> batch)
    {
        final Topic topic = topics.topicOrNull(partition.topic());
        if (topic == null || partition.partition() >= topic.partitionCount() || batch.isEmpty())
        {
            return -1;
        }
        final PartitionLog log = topic.partition(partition.partition());
        final long first = Math.max(Math.max(from, end - batch.size()), log.startOffset());
        if (first >= end || end > log.endOffset())
        {
            return -1;
        }
        final List<StoredRecord> tail = new ArrayList<>((int)(end - first));
        try (LogReader reader = log.newReader())
        {
            reader.seek(first);
            for (RecordView view = reader.next(); view != null && view.offset() < end; view = reader.next())
            {
                tail.add(stored(view));
            }
        }
        catch (final OffsetOutOfRangeException gone)
        {
            return -1;
        }
        for (int start = 0; start < tail.size(); start++)
        {
            final List<StoredRecord> run = tail.subList(start, tail.size());
            // a hole in the log makes the offsets skip: a batch's records follow one another
            if (run.get(0).offset == end - run.size() && run.get(run.size() - 1).offset == end - 1 &&
                beginsWith(run, batch))
            {
                return run.get(0).offset;
            }
        }
        return -1;
    }

    private static boolean beginsWith(final List<StoredRecord> stored, final List<ProducerRecord> batch)
    {
        for (int i = 0; i < stored.size(); i++)
        {
            if (!Arrays.equals(stored.get(i).key, batch.get(i).key()) ||
                !Arrays.equals(stored.get(i).value, batch.get(i).value()))
            {
                return false;
            }
        }
        return true;
    }

    private static StoredRecord stored(final RecordView view)
    {
        return new StoredRecord(view.offset(), view.keyLength() < 0 ? null : view.keyBytes(),
            view.valueLength() < 0 ? null : view.valueBytes());
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
