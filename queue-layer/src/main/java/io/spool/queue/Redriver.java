package io.spool.queue;

import io.spool.api.log.HeadersCodec;
import io.spool.api.log.RecordView;
import io.spool.api.InvalidRequestException;
import io.spool.api.queue.QueueHeaders;
import io.spool.api.queue.RedriveResult;
import io.spool.api.queue.UnknownSubscriptionException;
import io.spool.log.LogReader;
import io.spool.log.PartitionLog;
import io.spool.queue.internal.delivery.PendingConfirms;
import io.spool.stream.StreamEngine;
import io.spool.stream.StreamProducer;
import io.spool.stream.Topic;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Moves dead-lettered messages back to the subscription they died in (SQS redrive): each record of a range of a
 * dead-letter topic is published again to its source topic and partition, routed to its source subscription only
 * ({@link QueueHeaders#ROUTED_TO}), with every header kept: its dedup id, its death history (a second death counts
 * 2), and {@link #REDRIVEN_FROM} naming where it was read. The dead-letter topic is a log, so the records stay there:
 * resume from {@link RedriveResult#nextOffset()} to redrive each once. Thread-safe: redrives are serialised.
 */
public final class Redriver
{
    /** Where a redriven message was read: dead-letter topic, partition and offset. */
    public static final String REDRIVEN_FROM = "x-redriven-from";

    private final StreamEngine streams;
    private final SubscriptionRegistry subscriptions;
    private final PendingConfirms pending = new PendingConfirms();
    private final List<CompletableFuture<Void>> stored = new ArrayList<>();
    private final StreamProducer producer;
    private long nextCorrelation;

    public Redriver(final StreamEngine streams, final SubscriptionRegistry subscriptions)
    {
        this.streams = streams;
        this.subscriptions = subscriptions;
        this.producer = streams.newProducer(pending);
    }

    /** Redrives every record of the dead-letter topic. */
    public RedriveResult redriveAll(final String deadLetterTopic)
    {
        return redrive(deadLetterTopic, 0, Long.MAX_VALUE);
    }

    /**
     * Redrives the records at offsets {@code [fromOffset, toOffset)} of each partition of the dead-letter topic, and
     * waits until every copy is stored.
     *
     * @throws InvalidRequestException           if the range is empty or negative.
     * @throws io.spool.api.stream.UnknownTopicException if the topic does not exist.
     */
    public RedriveResult redrive(final String deadLetterTopic, final long fromOffset, final long toOffset)
    {
        return redrive(deadLetterTopic, fromOffset, toOffset, null);
    }

    /**
     * Redrives the messages that died in {@code subscription}: the records at offsets {@code [fromOffset, toOffset)}
     * of each partition of its dead-letter topic whose death history names it; the others of the range are skipped.
     * Waits until every copy is stored.
     *
     * @throws UnknownSubscriptionException if there is no such subscription.
     * @throws InvalidRequestException      if it has no dead-letter topic, or the range is empty or negative.
     */
    public RedriveResult redriveSubscription(final String subscription, final long fromOffset, final long toOffset)
    {
        final String deadLetterTopic = subscriptions.get(subscription).settings().deadLetterTopic();
        if (deadLetterTopic == null)
        {
            throw new InvalidRequestException("subscription " + subscription + " has no dead-letter topic, so " +
                "nothing of it can be redriven");
        }
        return redrive(deadLetterTopic, fromOffset, toOffset, subscription);
    }

    /** {@code onlySubscription} null redrives every record to the subscription it died in. */
    private synchronized RedriveResult redrive(final String deadLetterTopic, final long fromOffset,
        final long toOffset, final String onlySubscription)
    {
        if (fromOffset < 0 || toOffset <= fromOffset)
        {
            throw new InvalidRequestException("a redrive range needs 0 <= from < to, was [" + fromOffset + ", " +
                toOffset + ")");
        }
        final Topic topic = streams.topics().topic(deadLetterTopic);
        final long[] next = new long[topic.partitionCount()];
        final long[] counts = new long[2];
        for (int p = 0; p < next.length; p++)
        {
            final PartitionLog log = topic.partition(p);
            final long start = Math.max(fromOffset, log.startOffset());
            final long end = Math.min(toOffset, log.endOffset());
            next[p] = Math.max(start, end);
            if (start >= end)
            {
                continue;
            }
            final String source = deadLetterTopic + "/" + p + "@";
            try (LogReader reader = log.newReader())
            {
                reader.seek(start);
                final long[] position = {start};
                while (position[0] < end)
                {
                    if (reader.poll(record ->
                    {
                        if (record.offset() < end)
                        {
                            counts[redriveOne(record, source + record.offset(), onlySubscription) ? 0 : 1]++;
                        }
                        position[0] = record.offset() + 1;
                    }, 256) == 0)
                    {
                        break;
                    }
                }
            }
        }
        try
        {
            CompletableFuture.allOf(stored.toArray(new CompletableFuture[0])).join();
        }
        finally
        {
            stored.clear();
        }
        return new RedriveResult(counts[0], counts[1], next);
    }

    /**
     * @return false when the record has no death history, its source subscription is gone, or it is not
     * {@code onlySubscription} (when that is not null).
     */
    private boolean redriveOne(final RecordView record, final String readFrom, final String onlySubscription)
    {
        final Map<String, byte[]> headers = HeadersCodec.decode(record.buffer(), record.headersOffset(),
            record.headersLength());
        final String topic = text(headers.get(DeathHistory.TOPIC));
        final String subscription = text(headers.get(DeathHistory.SUBSCRIPTION));
        final String partition = text(headers.get(DeathHistory.PARTITION));
        if (topic == null || subscription == null || partition == null ||
            (onlySubscription != null && !onlySubscription.equals(subscription)) ||
            !subscriptions.list().contains(subscription) ||
            !subscriptions.get(subscription).topic().equals(topic))
        {
            return false;
        }
        final int sourcePartition = Math.max(0, Integer.parseInt(partition));
        headers.put(QueueHeaders.ROUTED_TO, subscription.getBytes(StandardCharsets.UTF_8));
        headers.put(REDRIVEN_FROM, readFrom.getBytes(StandardCharsets.UTF_8));
        final UnsafeBuffer encoded = new UnsafeBuffer(HeadersCodec.encode(headers));
        final long correlation = nextCorrelation++;
        stored.add(pending.expect(correlation));
        // The zero-copy path stores the dedup id as a plain header: a redrive must not be taken for a repeat.
        producer.publishToPartition(topic, sourcePartition % streams.topics().topic(topic).partitionCount(),
            record.buffer(), record.keyOffset(), record.keyLength(), encoded, 0, encoded.capacity(),
            record.buffer(), record.valueOffset(), record.valueLength(), correlation);
        return true;
    }

    private static String text(final byte[] bytes)
    {
        return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
    }
}
