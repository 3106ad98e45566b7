package io.spool.cluster;

import io.spool.api.SpoolException;
import io.spool.api.stream.KeyPartitioner;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicPartition;
import io.spool.cluster.ClusterEntryDescriptor.Reply;
import org.apache.ratis.protocol.RaftClientReply;

import java.security.SecureRandom;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publishes batches to replicated partitions. Each batch carries the producer's id and its next sequence for the
 * partition; the partition's state machine stores a batch whose sequence it has seen once, and answers the retry
 * with the first offsets, so a batch confirmed before a failover is not stored again when it is retried after.
 * A batch completes once a majority of the partition's nodes holds it in their Raft logs and the leader has stored
 * it in its Spool log. Thread-safe; batches to one partition are stored in the order they were sent.
 */
public final class ClusterProducer
{
    private static final SecureRandom IDS = new SecureRandom();

    private final ClusterClient client;
    private final long producerId = IDS.nextLong() & Long.MAX_VALUE;
    private final Map<TopicPartition, AtomicLong> sequences = new ConcurrentHashMap<>();
    private final AtomicInteger spread = new AtomicInteger();

    ClusterProducer(final ClusterClient client)
    {
        this.client = client;
    }

    public long producerId()
    {
        return producerId;
    }

    /**
     * Where a confirmed batch lies: its first record's offset and its record count; {@code retried} when the
     * cluster had stored it before (an earlier attempt was committed, its answer lost).
     */
    public record Confirm(String topic, int partition, long baseOffset, int count, boolean retried)
    {
    }

    /**
     * Sends one record, placed by its key as the embedded producer places it ({@link KeyPartitioner}), or without
     * a key to the partitions in turn.
     */
    public CompletableFuture<Confirm> send(final String topic, final byte[] key, final byte[] value)
    {
        final int partitions = client.partitionCount(topic);
        final int partition = key == null ? Math.floorMod(spread.getAndIncrement(), partitions) :
            KeyPartitioner.partitionForKey(key, partitions);
        return send(topic, partition, List.of(ProducerRecord.toPartition(topic, partition, key, value)));
    }

    /**
     * Sends {@code records} (their topic and partition fields are ignored; timestamps of -1 become the time of
     * sending, which every node then stores) as one batch to a partition.
     */
    public CompletableFuture<Confirm> send(final String topic, final int partition, final List<ProducerRecord> records)
    {
        if (records.isEmpty())
        {
            throw new IllegalArgumentException("a batch holds at least one record");
        }
        final TopicPartition where = new TopicPartition(topic, partition);
        // the sequence and the send are taken together, so batches of one partition reach Ratis in sequence order
        final AtomicLong next = sequences.computeIfAbsent(where, p -> new AtomicLong());
        synchronized (next)
        {
            return publish(client, where, producerId, next.getAndIncrement(), records);
        }
    }

    /**
     * Sends a batch of a producer, with its sequence, through the partition's group: for this producer, and for a
     * native client's batch that a node's server hands on ({@link ForwardedPublishes}). Timestamps of -1 become the
     * time of sending, which every node then stores.
     */
    static CompletableFuture<Confirm> publish(final ClusterClient client, final TopicPartition where,
        final long producerId, final long sequence, final List<ProducerRecord> records)
    {
        return client.publish(where, ClusterEntryDescriptor.publish(producerId, sequence, stamped(records)))
            .thenApply(answer -> confirm(where, sequence, answer));
    }

    /** The records with the time of sending for a timestamp of -1, so that every node stores the same one. */
    static List<ProducerRecord> stamped(final List<ProducerRecord> records)
    {
        final long now = System.currentTimeMillis();
        return records.stream()
            .map(record -> record.timestamp() == ProducerRecord.APPEND_TIME ? record.withTimestamp(now) : record)
            .toList();
    }

    private static Confirm confirm(final TopicPartition where, final long sequence, final RaftClientReply answer)
    {
        if (!answer.isSuccess())
        {
            throw new CompletionException(new SpoolException("batch " + sequence + " to " + where + " failed: " +
                answer.getException().getMessage(), answer.getException()));
        }
        final Reply reply = ClusterEntryDescriptor.decodeReply(answer.getMessage().getContent());
        if (reply.status() == ClusterEntryDescriptor.STATUS_REFUSED)
        {
            throw new CompletionException(new SpoolException(reply.problem()));
        }
        return new Confirm(where.topic(), where.partition(), reply.baseOffset(), reply.count(),
            reply.status() == ClusterEntryDescriptor.STATUS_DUPLICATE);
    }
}
