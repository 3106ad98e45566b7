package io.spool.stream;

import io.spool.api.SpoolException;
import io.spool.api.log.DedupKey;
import io.spool.api.log.HeadersCodec;
import io.spool.api.log.RecordDescriptor;
import io.spool.api.stream.IllegalClientStateException;
import io.spool.api.stream.KeyPartitioner;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.PublishListener;
import io.spool.api.stream.PublishResult;
import io.spool.api.stream.UnknownPartitionException;
import io.spool.api.stream.UnknownTopicException;
import io.spool.log.ConfirmListener;
import io.spool.log.LogProducer;
import io.spool.log.PartitionLog;
import io.spool.log.RecordBatch;
import io.spool.log.RecordRanges;
import org.agrona.DirectBuffer;
import org.agrona.collections.IntArrayList;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Publishes records to topics: by key (the partition Kafka's default partitioner would pick), to an explicit
 * partition, or spread in turn when the key is null. The zero-copy {@code publish} methods allocate nothing per
 * record and report through the {@link PublishListener} given at creation; the {@code send} methods take byte
 * arrays and return futures. Not thread-safe: one producer per publishing thread.
 */
public final class StreamProducer
{
    /** {@link #tryPublish} found the pipeline full; nothing was published. */
    public static final int BACK_PRESSURED = -2;

    private static final UnsafeBuffer EMPTY = new UnsafeBuffer(new byte[0]);

    private final TopicRegistry topics;
    private final LogProducer logProducer;
    private final PublishListener listener;
    private final KeyPartitioner partitioner = new KeyPartitioner();
    private final Map<String, TopicConfirms> confirmsByTopic = new HashMap<>();
    private final UnsafeBuffer keyWrapper = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer headersWrapper = new UnsafeBuffer(0, 0);
    private final UnsafeBuffer valueWrapper = new UnsafeBuffer(0, 0);
    private final List<RecordBatch> shareBatches = new ArrayList<>();

    StreamProducer(final TopicRegistry topics, final LogProducer logProducer, final PublishListener listener)
    {
        this.topics = topics;
        this.logProducer = logProducer;
        this.listener = listener;
    }

    /**
     * Publishes one record, choosing the partition by key (or in turn for a null key, {@code keyLength == -1}),
     * waiting while the pipeline is full. The outcome reaches the producer's listener with {@code correlation}.
     *
     * @param headersLength 0 for no headers; otherwise bytes encoded by {@link HeadersCodec}
     * @param valueLength   -1 for a null value
     * @return the partition the record went to
     * @throws UnknownTopicException when the topic does not exist
     * @throws IndexOutOfBoundsException when a field does not lie inside its buffer; nothing is published
     */
    public int publish(final String topic,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer headers, final int headersOffset, final int headersLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long correlation)
    {
        RecordRanges.check(key, keyOffset, keyLength, headers, headersOffset, headersLength,
            value, valueOffset, valueLength);
        final TopicConfirms confirms = confirmsFor(topic);
        final int partition = choosePartition(confirms.topic, key, keyOffset, keyLength);
        logProducer.publish(confirms.topic.partition(partition), -1, key, keyOffset, keyLength,
            headers, headersOffset, headersLength, value, valueOffset, valueLength,
            confirms.forPartition(partition), correlation);
        return partition;
    }

    /**
     * Like {@link #publish} but to the partition given.
     *
     * @throws UnknownPartitionException when the topic has no such partition
     */
    public int publishToPartition(final String topic, final int partition,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer headers, final int headersOffset, final int headersLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long correlation)
    {
        final TopicConfirms confirms = confirmsFor(topic);
        logProducer.publish(confirms.topic.partition(partition), -1, key, keyOffset, keyLength,
            headers, headersOffset, headersLength, value, valueOffset, valueLength,
            confirms.forPartition(partition), correlation);
        return partition;
    }

    /**
     * Like {@link #publish} but returns {@link #BACK_PRESSURED} instead of waiting when the pipeline is full.
     * A null-key record that was back-pressured does not use up its turn, so a retry goes to the same partition.
     */
    public int tryPublish(final String topic,
        final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer headers, final int headersOffset, final int headersLength,
        final DirectBuffer value, final int valueOffset, final int valueLength,
        final long correlation)
    {
        RecordRanges.check(key, keyOffset, keyLength, headers, headersOffset, headersLength,
            value, valueOffset, valueLength);
        final TopicConfirms confirms = confirmsFor(topic);
        final int partition = keyLength < 0 ? partitioner.peekSpreadPartition(confirms.topic.partitionCount()) :
            KeyPartitioner.partitionForKey(key, keyOffset, keyLength, confirms.topic.partitionCount());
        final long sequence = logProducer.tryPublish(confirms.topic.partition(partition), -1,
            key, keyOffset, keyLength, headers, headersOffset, headersLength, value, valueOffset, valueLength,
            confirms.forPartition(partition), correlation);
        if (sequence == LogProducer.BACK_PRESSURED)
        {
            return BACK_PRESSURED;
        }
        if (keyLength < 0)
        {
            partitioner.nextSpreadPartition(confirms.topic.partitionCount());
        }
        return partition;
    }

    /**
     * Publishes every record of {@code records} to one partition with one claim of pipeline slots; record
     * {@code i} is confirmed with correlation {@code firstCorrelation + i}.
     */
    public void publishBatch(final String topic, final int partition, final RecordBatch records,
        final long firstCorrelation)
    {
        final TopicConfirms confirms = confirmsFor(topic);
        logProducer.publishBatch(confirms.topic.partition(partition), records, confirms.forPartition(partition),
            firstCorrelation);
    }

    /** Convenience: publishes a copy of the arrays by key (or spread) and completes with where it landed. */
    public CompletableFuture<PublishResult> send(final String topic, final byte[] key, final byte[] value)
    {
        return send(ProducerRecord.of(topic, key, value));
    }

    /**
     * Convenience: publishes one record and completes with where it landed. Allocates. A record with a
     * {@link DedupKey#HEADER} header (or any record, on a topic that dedups by content) is stored once per dedup
     * window: a repeat completes with the first record's offset. A keyless record with a dedup id goes to the
     * partition its id hashes to, so repeats meet the first.
     */
    public CompletableFuture<PublishResult> send(final ProducerRecord record)
    {
        final Topic topic = topics.topic(record.topic());
        final Map<String, byte[]> headerMap = withDedupId(topic, record);
        final int partition = partitionOf(topic, record, headerMap);
        final byte[] headers = HeadersCodec.encode(headerMap);
        final FutureConfirm confirm = new FutureConfirm(record.topic(), partition);
        logProducer.publish(topic.partition(partition), record.timestamp(), dedupAttributes(headerMap),
            wrap(keyWrapper, record.key()), 0, record.key() == null ? -1 : record.key().length,
            wrap(headersWrapper, headers), 0, headers.length,
            wrap(valueWrapper, record.value()), 0, record.value() == null ? -1 : record.value().length,
            confirm, 0);
        return confirm;
    }

    /**
     * Convenience: publishes records (to any topics and partitions), each partition's share in one batch, and
     * completes with every record's place, in the order given, once all are stored; fails if any failed. A record
     * refused before publishing (too large, bad attributes) refuses the whole batch: nothing of it is stored.
     */
    public CompletableFuture<List<PublishResult>> sendBatch(final List<ProducerRecord> records)
    {
        final BatchConfirm confirm = new BatchConfirm(records.size());
        final Map<PartitionLog, IntArrayList> byLog = new HashMap<>();
        for (int i = 0; i < records.size(); i++)
        {
            final ProducerRecord record = records.get(i);
            final Topic topic = topics.topic(record.topic());
            final int partition = partitionOf(topic, record, withDedupId(topic, record));
            final PartitionLog log = topic.partition(partition);
            byLog.computeIfAbsent(log, l -> new IntArrayList()).addInt(i);
            confirm.placeOf(i, record.topic(), partition);
        }
        int shares = 0;
        for (final Map.Entry<PartitionLog, IntArrayList> share : byLog.entrySet())
        {
            final RecordBatch shareBatch = shareBatch(shares++);
            final IntArrayList indices = share.getValue();
            for (int i = 0; i < indices.size(); i++)
            {
                addTo(shareBatch, records.get(indices.getInt(i)));
            }
            logProducer.checkBatch(share.getKey(), shareBatch);
        }
        shares = 0;
        for (final Map.Entry<PartitionLog, IntArrayList> share : byLog.entrySet())
        {
            logProducer.publishBatch(share.getKey(), shareBatches.get(shares++), confirm.forIndices(share.getValue()),
                0);
        }
        if (records.isEmpty())
        {
            confirm.complete(List.of());
        }
        return confirm;
    }

    /**
     * The {@code index}th partition's batch of a sendBatch call, cleared: kept between calls, since publishing
     * copies a batch into the pipeline before it returns.
     */
    private RecordBatch shareBatch(final int index)
    {
        if (index == shareBatches.size())
        {
            shareBatches.add(new RecordBatch());
        }
        final RecordBatch batch = shareBatches.get(index);
        batch.clear();
        return batch;
    }

    private void addTo(final RecordBatch target, final ProducerRecord record)
    {
        final Map<String, byte[]> headerMap = withDedupId(topics.topic(record.topic()), record);
        final byte[] headers = HeadersCodec.encode(headerMap);
        target.add(record.timestamp(), dedupAttributes(headerMap),
            wrap(keyWrapper, record.key()), 0, record.key() == null ? -1 : record.key().length,
            wrap(headersWrapper, headers), 0, headers.length,
            wrap(valueWrapper, record.value()), 0, record.value() == null ? -1 : record.value().length);
    }

    private int partitionOf(final Topic topic, final ProducerRecord record, final Map<String, byte[]> headers)
    {
        if (record.partition() != ProducerRecord.ANY_PARTITION)
        {
            topic.partition(record.partition());
            return record.partition();
        }
        if (record.key() != null)
        {
            return KeyPartitioner.partitionForKey(record.key(), topic.partitionCount());
        }
        final byte[] dedupId = headers.get(DedupKey.HEADER);
        return dedupId != null ? KeyPartitioner.partitionForKey(dedupId, topic.partitionCount()) :
            partitioner.nextSpreadPartition(topic.partitionCount());
    }

    /** The record's headers, with a content-hash dedup id added when its topic asks for one and it has none. */
    private static Map<String, byte[]> withDedupId(final Topic topic, final ProducerRecord record)
    {
        final Map<String, byte[]> headers = record.headers() == null ? Map.of() : record.headers();
        if (!topic.config().dedupByContent() || headers.containsKey(DedupKey.HEADER))
        {
            return headers;
        }
        final Map<String, byte[]> withId = new HashMap<>(headers);
        withId.put(DedupKey.HEADER, contentId(record.key(), record.value()));
        return withId;
    }

    /** Hex of the 128-bit hash of key and value, each preceded by its length so that their split counts. */
    static byte[] contentId(final byte[] key, final byte[] value)
    {
        final int keyLength = key == null ? -1 : key.length;
        final int valueLength = value == null ? -1 : value.length;
        final UnsafeBuffer content = new UnsafeBuffer(new byte[8 + Math.max(0, keyLength) + Math.max(0, valueLength)]);
        content.putInt(0, keyLength);
        if (keyLength > 0)
        {
            content.putBytes(4, key);
        }
        content.putInt(4 + Math.max(0, keyLength), valueLength);
        if (valueLength > 0)
        {
            content.putBytes(8 + Math.max(0, keyLength), value);
        }
        final long high = DedupKey.high(content, 0, content.capacity());
        final long low = DedupKey.low(content, 0, content.capacity());
        return String.format("%016x%016x", high, low).getBytes(StandardCharsets.UTF_8);
    }

    private static int dedupAttributes(final Map<String, byte[]> headers)
    {
        return headers.containsKey(DedupKey.HEADER) ? RecordDescriptor.ATTRIBUTE_DEDUP : 0;
    }

    private int choosePartition(final Topic topic, final DirectBuffer key, final int keyOffset, final int keyLength)
    {
        return keyLength < 0 ? partitioner.nextSpreadPartition(topic.partitionCount()) :
            KeyPartitioner.partitionForKey(key, keyOffset, keyLength, topic.partitionCount());
    }

    /** The topic's per-partition confirm adapters, rebuilt when the topic was deleted and created again. */
    private TopicConfirms confirmsFor(final String topicName)
    {
        final Topic topic = topics.topic(topicName);
        TopicConfirms confirms = confirmsByTopic.get(topicName);
        if (confirms == null || confirms.topic != topic)
        {
            if (listener == null)
            {
                throw new IllegalClientStateException("this producer was made without a PublishListener, so it " +
                    "has nowhere to report zero-copy publishes; use send(...) or newProducer(listener)");
            }
            confirms = new TopicConfirms(topic, listener);
            confirmsByTopic.put(topicName, confirms);
        }
        return confirms;
    }

    private static DirectBuffer wrap(final UnsafeBuffer wrapper, final byte[] bytes)
    {
        if (bytes == null || bytes.length == 0)
        {
            return EMPTY;
        }
        wrapper.wrap(bytes);
        return wrapper;
    }

    /** One adapter per partition, so a confirm carries its partition without allocating per record. */
    private static final class TopicConfirms
    {
        final Topic topic;
        private final PartitionConfirm[] partitions;

        TopicConfirms(final Topic topic, final PublishListener listener)
        {
            this.topic = topic;
            this.partitions = new PartitionConfirm[topic.partitionCount()];
            for (int p = 0; p < partitions.length; p++)
            {
                partitions[p] = new PartitionConfirm(topic.name(), p, listener);
            }
        }

        ConfirmListener forPartition(final int partition)
        {
            return partitions[partition];
        }
    }

    private static final class PartitionConfirm implements ConfirmListener
    {
        private final String topic;
        private final int partition;
        private final PublishListener listener;

        PartitionConfirm(final String topic, final int partition, final PublishListener listener)
        {
            this.topic = topic;
            this.partition = partition;
            this.listener = listener;
        }

        @Override
        public void onConfirmed(final long correlation, final long offset)
        {
            listener.onPublished(correlation, topic, partition, offset);
        }

        @Override
        public void onFailed(final long correlation, final SpoolException error)
        {
            listener.onFailed(correlation, topic, partition, error);
        }
    }

    private static final class FutureConfirm extends CompletableFuture<PublishResult> implements ConfirmListener
    {
        private final String topic;
        private final int partition;

        FutureConfirm(final String topic, final int partition)
        {
            this.topic = topic;
            this.partition = partition;
        }

        @Override
        public void onConfirmed(final long correlation, final long offset)
        {
            complete(new PublishResult(topic, partition, offset));
        }

        @Override
        public void onFailed(final long correlation, final SpoolException error)
        {
            completeExceptionally(error);
        }
    }

    /** Collects a batch's confirms, which arrive on several pipeline threads, into one future. */
    private static final class BatchConfirm extends CompletableFuture<List<PublishResult>>
    {
        private final String[] topicOf;
        private final int[] partitionOf;
        private final long[] offsetOf;
        private final AtomicInteger outstanding;

        BatchConfirm(final int size)
        {
            topicOf = new String[size];
            partitionOf = new int[size];
            offsetOf = new long[size];
            outstanding = new AtomicInteger(size);
        }

        void placeOf(final int index, final String topic, final int partition)
        {
            topicOf[index] = topic;
            partitionOf[index] = partition;
        }

        ConfirmListener forIndices(final IntArrayList indices)
        {
            final int[] recordIndex = indices.toIntArray();
            return new ConfirmListener()
            {
                @Override
                public void onConfirmed(final long correlation, final long offset)
                {
                    offsetOf[recordIndex[(int)correlation]] = offset;
                    if (outstanding.decrementAndGet() == 0)
                    {
                        final List<PublishResult> results = new ArrayList<>(offsetOf.length);
                        for (int i = 0; i < offsetOf.length; i++)
                        {
                            results.add(new PublishResult(topicOf[i], partitionOf[i], offsetOf[i]));
                        }
                        complete(results);
                    }
                }

                @Override
                public void onFailed(final long correlation, final SpoolException error)
                {
                    completeExceptionally(error);
                }
            };
        }
    }
}
