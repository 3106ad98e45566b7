package io.spool.cluster;

import io.spool.api.log.HeadersCodec;
import io.spool.api.log.RecordView;
import io.spool.api.stream.KeyPartitioner;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicPartition;
import io.spool.cluster.DeadLetterCopies.OwedCopy;
import io.spool.log.LogReader;
import io.spool.log.PartitionLog;
import io.spool.queue.DeathHistory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * Copies the dead letters one partition's group owes to their dead-letter topics, on the node that leads the
 * group: one copy at a time, oldest first per subscription, published through the cluster as producer
 * {@link #producerId} with the dead letter's ordinal as its sequence, then confirmed by a DEAD_LETTER_COPIED entry of
 * this partition's group. A leader that dies between the two leaves the copy owed; the next leader publishes it
 * again, and the dead-letter topic's producer window answers that retry with the offset the copy got and stores it
 * no second time. Since a subscription's next copy goes out only once the one before is confirmed, a retry is always
 * within the window ({@code docs/decisions/021-dead-letters-on-a-cluster.md}).
 * <p>
 * The copy is the one the single-node engine makes: the record's key and value, its headers with the death
 * history added ({@link DeathHistory}), at the time the group decided the death.
 * <p>
 * Thread-safe: the apply thread hands over what is owed ({@link #owe}); copying runs on the node's
 * {@link DeadLetterSender} thread.
 */
final class DeadLetterCopier
{
    private static final Logger LOGGER = LoggerFactory.getLogger(DeadLetterCopier.class);

    private final String topic;
    private final int partition;
    private final PartitionLog log;
    /** Whether this node leads the partition's group and has applied every entry of earlier terms. */
    private final BooleanSupplier leads;
    private final DeadLetterSender sender;
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private volatile List<OwedCopy> owed = List.of();
    /** The subscriptions' count of changes when the apply thread last handed their copies over. */
    private long changesHandedOver = -1;

    DeadLetterCopier(final String topic, final int partition, final PartitionLog log, final BooleanSupplier leads,
        final DeadLetterSender sender)
    {
        this.topic = topic;
        this.partition = partition;
        this.log = log;
        this.leads = leads;
        this.sender = sender;
        sender.register(this);
    }

    /** The producer id of the copies of one subscription partition: the same on every node, under every leader. */
    static long producerId(final String topic, final int partition, final String subscription)
    {
        return UUID.nameUUIDFromBytes(("spool dead letters of " + topic + "-" + partition + " subscription " +
            subscription).getBytes(UTF_8)).getMostSignificantBits() & Long.MAX_VALUE;
    }

    /** Called by the apply thread after each queue entry: takes what is owed, when that changed. */
    void handOver(final ReplicatedSubscriptions subscriptions)
    {
        final long changes = subscriptions.owedCopiesChanges();
        if (changes != changesHandedOver)
        {
            changesHandedOver = changes;
            owed = subscriptions.owedCopies();
            wake();
        }
    }

    List<OwedCopy> owed()
    {
        return owed;
    }

    /** Copies what is owed, if this node leads; repeated wakes before it runs make one run. */
    void wake()
    {
        if (!owed.isEmpty() && scheduled.compareAndSet(false, true))
        {
            sender.execute(() ->
            {
                scheduled.set(false);
                copyOwed();
            });
        }
    }

    private void copyOwed()
    {
        while (true)
        {
            final List<OwedCopy> pending = owed;
            if (pending.isEmpty() || !leads.getAsBoolean() || sender.holds(DeadLetterSender.Hold.BEFORE_COPY))
            {
                return;
            }
            final OwedCopy copy = pending.get(0);
            if (log.endOffset() <= copy.offset())
            {
                // the apply thread decided the death before this node's log stored the record
                sender.retryLater(this::wake);
                return;
            }
            try
            {
                publish(copy);
                if (sender.holds(DeadLetterSender.Hold.BEFORE_CONFIRM))
                {
                    return;
                }
                sender.cluster().confirmDeadLetterCopied(topic, partition, copy.subscription(), copy.ordinal());
            }
            catch (final RuntimeException failed)
            {
                if (!sender.closed())
                {
                    LOGGER.warn("{}-{} could not copy dead letter {} of subscription {} (offset {}) to {} yet, " +
                        "trying again: {}", topic, partition, copy.ordinal(), copy.subscription(), copy.offset(),
                        copy.deadLetterTopic(), failed.getMessage());
                    sender.retryLater(this::wake);
                }
                return;
            }
            if (owed.contains(copy))
            {
                // the confirm was applied by a new leader before this node: it goes on from what this node applies
                sender.retryLater(this::wake);
                return;
            }
        }
    }

    private void publish(final OwedCopy copy)
    {
        final ProducerRecord letter = letterOf(copy);
        if (letter == null)
        {
            LOGGER.warn("dead letter of subscription {} ({} partition {} offset {}) was not copied to {}: " +
                "retention removed its record first", copy.subscription(), topic, partition, copy.offset(),
                copy.deadLetterTopic());
            return;
        }
        ClusterProducer.publish(sender.cluster(), new TopicPartition(letter.topic(), letter.partition()),
            producerId(topic, partition, copy.subscription()), copy.ordinal(), List.of(letter)).join();
    }

    /**
     * The copy as the dead-letter topic stores it, or null when the log no longer holds the record. Its partition
     * is the key's, as a keyed publish's; without a key it is this partition's number modulo the topic's
     * partitions, so that every leader sends a retry to the partition that stored the first try.
     */
    private ProducerRecord letterOf(final OwedCopy copy)
    {
        if (copy.offset() < log.startOffset())
        {
            return null;
        }
        try (LogReader reader = log.newReader())
        {
            reader.seek(copy.offset());
            final RecordView record = reader.next();
            if (record == null)
            {
                return null;
            }
            final Map<String, byte[]> original = record.headersLength() <= 0 ? Map.of() :
                HeadersCodec.decode(record.buffer(), record.headersOffset(), record.headersLength());
            final Map<String, byte[]> headers = DeathHistory.record(original, topic, copy.subscription(), partition,
                copy.offset(), copy.reason(), copy.deliveryCount(), copy.deathTimeMillis());
            final byte[] key = record.keyBytes();
            final int partitions = sender.cluster().partitionCount(copy.deadLetterTopic());
            final int target = key == null ? partition % partitions : KeyPartitioner.partitionForKey(key, partitions);
            return new ProducerRecord(copy.deadLetterTopic(), target, key, headers, record.valueBytes());
        }
    }
}
