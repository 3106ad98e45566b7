package io.spool.model;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a stream engine should do, kept in plain lists and maps: topics of partitions of records, where each
 * consumer would read next, and the offsets each group committed. Written for clarity, not speed, and without any
 * of the engine's code: the keyed partitioner is Kafka's murmur2, written out again here. Not thread-safe.
 */
public final class StreamModel
{
    /** A partition of a topic. */
    public record Partition(String topic, int partition) implements Comparable<Partition>
    {
        @Override
        public int compareTo(final Partition other)
        {
            final int byTopic = topic.compareTo(other.topic);
            return byTopic != 0 ? byTopic : Integer.compare(partition, other.partition);
        }

        @Override
        public String toString()
        {
            return topic + "-" + partition;
        }
    }

    /** A published record; key and value are text, the key may be null. */
    public record Record(Partition partition, long offset, long timestamp, String key, String value)
    {
    }

    private final Map<String, List<List<Record>>> topics = new LinkedHashMap<>();
    /** Consumer name to its position in each partition it reads. */
    private final Map<String, Map<Partition, Long>> positions = new HashMap<>();
    /** Group id to its committed offset (the next offset to read) per partition. */
    private final Map<String, Map<Partition, Long>> committed = new HashMap<>();
    private int nextSpread;

    public void createTopic(final String name, final int partitionCount)
    {
        final List<List<Record>> partitions = new ArrayList<>();
        for (int p = 0; p < partitionCount; p++)
        {
            partitions.add(new ArrayList<>());
        }
        topics.put(name, partitions);
    }

    public List<Partition> partitions()
    {
        final List<Partition> all = new ArrayList<>();
        topics.forEach((name, partitions) ->
        {
            for (int p = 0; p < partitions.size(); p++)
            {
                all.add(new Partition(name, p));
            }
        });
        return all;
    }

    public List<Partition> partitionsOf(final String topic)
    {
        final List<Partition> all = new ArrayList<>();
        for (int p = 0; p < topics.get(topic).size(); p++)
        {
            all.add(new Partition(topic, p));
        }
        return all;
    }

    private int partitionCount(final String topic)
    {
        return topics.get(topic).size();
    }

    /**
     * Publishes where Kafka's default partitioner would: by the key's murmur2 hash, or, without a key, to the next
     * partition in turn (the turn belongs to the producer, see {@link #newProducer()}).
     */
    public Record publish(final String topic, final String key, final String value, final long timestamp)
    {
        final int partitionCount = partitionCount(topic);
        final int partition = key == null ? Integer.remainderUnsigned(nextSpread++, partitionCount) :
            (murmur2(key.getBytes(StandardCharsets.UTF_8)) & 0x7fffffff) % partitionCount;
        return publishToPartition(new Partition(topic, partition), key, value, timestamp);
    }

    public Record publishToPartition(final Partition partition, final String key, final String value,
        final long timestamp)
    {
        final List<Record> records = records(partition);
        final Record record = new Record(partition, records.size(), timestamp, key, value);
        records.add(record);
        return record;
    }

    /** A new producer starts its round-robin turn at partition 0. */
    public void newProducer()
    {
        nextSpread = 0;
    }

    public long endOffset(final Partition partition)
    {
        return records(partition).size();
    }

    /** The records from {@code from} on, at most {@code max}. */
    public List<Record> read(final Partition partition, final long from, final int max)
    {
        final List<Record> records = records(partition);
        return List.copyOf(records.subList((int)from, (int)Math.min(records.size(), from + max)));
    }

    /** The first offset whose record has a timestamp at or after {@code timestamp}, or the end offset. */
    public long offsetForTimestamp(final Partition partition, final long timestamp)
    {
        for (final Record record : records(partition))
        {
            if (record.timestamp() >= timestamp)
            {
                return record.offset();
            }
        }
        return endOffset(partition);
    }

    public Map<Partition, Long> positions(final String consumer)
    {
        return positions.computeIfAbsent(consumer, c -> new TreeMap<>());
    }

    /** The consumer starts reading a partition: at the group's committed offset, or at the log start. */
    public void startReading(final String consumer, final String group, final Partition partition)
    {
        positions(consumer).put(partition, committed(group, partition).orElse(0L));
    }

    public void stopReading(final String consumer, final Collection<Partition> partitions)
    {
        positions(consumer).keySet().removeAll(partitions);
    }

    public void forgetConsumer(final String consumer)
    {
        positions.remove(consumer);
    }

    public void seek(final String consumer, final Partition partition, final long offset)
    {
        positions(consumer).put(partition, offset);
    }

    /** Records that the consumer read {@code count} records of the partition. */
    public void advance(final String consumer, final Partition partition, final int count)
    {
        positions(consumer).merge(partition, (long)count, Long::sum);
    }

    /** The group commits the consumer's position in every partition it reads. */
    public void commit(final String group, final String consumer)
    {
        committed.computeIfAbsent(group, g -> new TreeMap<>()).putAll(positions(consumer));
    }

    public Optional<Long> committed(final String group, final Partition partition)
    {
        return Optional.ofNullable(committed.getOrDefault(group, Map.of()).get(partition));
    }

    /**
     * True when the members' assignments together hold every partition of the topics exactly once: none twice,
     * none missing.
     */
    public static boolean coversExactlyOnce(final Collection<Set<Partition>> assignments,
        final Collection<Partition> partitions)
    {
        final Set<Partition> seen = new HashSet<>();
        int held = 0;
        for (final Set<Partition> assignment : assignments)
        {
            seen.addAll(assignment);
            held += assignment.size();
        }
        return held == seen.size() && seen.equals(new HashSet<>(partitions));
    }

    private List<Record> records(final Partition partition)
    {
        return topics.get(partition.topic()).get(partition.partition());
    }

    /** Kafka's murmur2 (the 32-bit MurmurHash2 with Kafka's seed), as its default partitioner uses it. */
    @SuppressWarnings("fallthrough")
    static int murmur2(final byte[] data)
    {
        final int length = data.length;
        final int m = 0x5bd1e995;
        final int r = 24;
        int h = 0x9747b28c ^ length;
        for (int i = 0; i + 4 <= length; i += 4)
        {
            int k = (data[i] & 0xff) | (data[i + 1] & 0xff) << 8 | (data[i + 2] & 0xff) << 16 |
                (data[i + 3] & 0xff) << 24;
            k *= m;
            k ^= k >>> r;
            k *= m;
            h *= m;
            h ^= k;
        }
        final int tail = length & ~3;
        switch (length % 4)
        {
            case 3:
                h ^= (data[tail + 2] & 0xff) << 16;
            case 2:
                h ^= (data[tail + 1] & 0xff) << 8;
            case 1:
                h ^= data[tail] & 0xff;
                h *= m;
            default:
                break;
        }
        h ^= h >>> 13;
        h *= m;
        h ^= h >>> 15;
        return h;
    }

    @Override
    public String toString()
    {
        final Map<String, List<Integer>> sizes = new LinkedHashMap<>();
        topics.forEach((name, partitions) -> sizes.put(name, partitions.stream().map(List::size).toList()));
        return "StreamModel{records=" + sizes + ", positions=" + positions + ", committed=" + committed + '}';
    }
}
