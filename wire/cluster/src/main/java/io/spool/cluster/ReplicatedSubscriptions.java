package io.spool.cluster;

import io.netty.buffer.ByteBuf;
import io.spool.api.InvalidRequestException;
import io.spool.api.SpoolException;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.cluster.QueueEntryDescriptor.CreateSubscription;
import io.spool.cluster.QueueEntryDescriptor.DeadLetterCopied;
import io.spool.cluster.QueueEntryDescriptor.QueueReply;
import io.spool.cluster.QueueEntryDescriptor.Receive;
import io.spool.cluster.QueueEntryDescriptor.Settle;
import io.spool.queue.ReplicatedPartitionState;
import io.spool.queue.ReplicatedPartitionState.DeadLetter;
import io.spool.wire.Fields;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The subscriptions of one replicated partition, each with its per-message state, changed only by the partition
 * group's committed queue entries: every node applies the same entries in the same order at the same stamped times,
 * so every node holds the same acks, delivery counts, locks, delays and dead messages, and a new leader goes on
 * where the old one stopped.
 * <p>
 * A subscription is created by an entry of the partition's own group (not the metadata group), so that on every
 * node it exists exactly from the same point of the partition's order: no receive can reach a node before the
 * subscription it names.
 * <p>
 * A subscription with a dead-letter topic owes a copy of each message that goes dead ({@link DeadLetterCopies})
 * until a DEAD_LETTER_COPIED entry says the topic stored it; the leader makes the copies
 * ({@link DeadLetterCopier}).
 * <p>
 * Not thread-safe: owned by the partition group's apply thread, which Ratis runs one entry at a time.
 */
final class ReplicatedSubscriptions
{
    private static final Logger LOGGER = LoggerFactory.getLogger(ReplicatedSubscriptions.class);

    private final String topic;
    private final int partition;
    private final Map<String, ReplicatedPartitionState> subscriptions = new TreeMap<>();
    /** The entry that created each subscription, whose settings a snapshot keeps with the state. */
    private final Map<String, CreateSubscription> created = new TreeMap<>();
    private final DeadLetterCopies copies = new DeadLetterCopies();

    ReplicatedSubscriptions(final String topic, final int partition)
    {
        this.topic = topic;
        this.partition = partition;
    }

    /** Creates the subscription, starting at the partition's first offset (it sees every replicated record). */
    QueueReply create(final CreateSubscription create)
    {
        if (subscriptions.containsKey(create.subscription()))
        {
            return QueueReply.refused(QueueEntryDescriptor.REFUSAL_SUBSCRIPTION_EXISTS, create.subscription());
        }
        final SubscriptionSettings settings;
        try
        {
            settings = settingsOf(create);
        }
        catch (final SpoolException invalid)
        {
            return QueueReply.refusedBy(invalid);
        }
        subscriptions.put(create.subscription(),
            new ReplicatedPartitionState(partition, settings, 0, create.timeMillis()));
        created.put(create.subscription(), create);
        return QueueReply.done(0, List.of());
    }

    /** The settings a CREATE_SUBSCRIPTION entry gives: the only ones a replicated subscription honours. */
    private static SubscriptionSettings settingsOf(final CreateSubscription create)
    {
        return SubscriptionSettings.builder()
            .lockTimeoutMillis(create.lockTimeoutMillis())
            .deliveryLimit(create.deliveryLimit())
            .deadLetterTopic(create.deadLetterTopic())
            .build();
    }

    /** Hands out messages below {@code replicatedEnd}, the partition's end when the entry applied. */
    QueueReply receive(final Receive receive, final long replicatedEnd)
    {
        final ReplicatedPartitionState state = subscriptions.get(receive.subscription());
        if (state == null)
        {
            return unknown(receive.subscription());
        }
        try
        {
            final QueueReply reply = QueueReply.done(0,
                state.receive(receive.timeMillis(), replicatedEnd, receive.max(), receive.lockMillis()));
            oweDeadLetters(receive.subscription(), state, receive.timeMillis());
            return reply;
        }
        catch (final SpoolException refused)
        {
            return QueueReply.refusedBy(refused);
        }
    }

    QueueReply settle(final Settle settle)
    {
        final ReplicatedPartitionState state = subscriptions.get(settle.subscription());
        if (state == null)
        {
            return unknown(settle.subscription());
        }
        try
        {
            final long now = settle.timeMillis();
            final long value = switch (settle.action())
            {
                case QueueEntryDescriptor.ACTION_ACK ->
                {
                    state.ack(now, settle.offset(), settle.deliveryNumber());
                    yield 0;
                }
                case QueueEntryDescriptor.ACTION_NACK ->
                {
                    state.nack(now, settle.offset(), settle.deliveryNumber(), settle.argument());
                    yield 0;
                }
                case QueueEntryDescriptor.ACTION_REJECT ->
                {
                    state.reject(now, settle.offset(), settle.deliveryNumber());
                    yield 0;
                }
                case QueueEntryDescriptor.ACTION_EXTEND ->
                    state.extend(now, settle.offset(), settle.deliveryNumber(), settle.argument());
                default -> throw new InvalidRequestException("settle action " + settle.action() +
                    " is none of ack (1), nack (2), reject (3), extend (4)");
            };
            oweDeadLetters(settle.subscription(), state, settle.timeMillis());
            return QueueReply.done(value, List.of());
        }
        catch (final SpoolException refused)
        {
            return QueueReply.refusedBy(refused);
        }
    }

    /** The dead-letter topic stored the copy: it is owed no more. */
    QueueReply copied(final DeadLetterCopied copied)
    {
        if (!subscriptions.containsKey(copied.subscription()))
        {
            return unknown(copied.subscription());
        }
        copies.copied(copied.subscription(), copied.ordinal());
        return QueueReply.done(0, List.of());
    }

    /** Every copy a dead-letter topic still owes, each subscription's in ordinal order. */
    List<DeadLetterCopies.OwedCopy> owedCopies()
    {
        return copies.owed();
    }

    /** Grows with every change of the copies owed. */
    long owedCopiesChanges()
    {
        return copies.changes();
    }

    /** The dead-letter topic of the subscription, or null when it has none (or does not exist). */
    String deadLetterTopic(final String subscription)
    {
        final CreateSubscription create = created.get(subscription);
        return create == null ? null : create.deadLetterTopic();
    }

    /**
     * Writes every subscription in name order: count (int32), then per subscription the CREATE_SUBSCRIPTION entry
     * that made it and its state ({@link ReplicatedPartitionState#snapshot()}), each as bytes; then the copies owed
     * to dead-letter topics ({@link DeadLetterCopies#writeTo}).
     */
    void writeTo(final ByteBuf out)
    {
        out.writeIntLE(subscriptions.size());
        for (final Map.Entry<String, ReplicatedPartitionState> subscription : subscriptions.entrySet())
        {
            Fields.writeBytes(out, QueueEntryDescriptor.createSubscription(created.get(subscription.getKey()))
                .getContent().toByteArray());
            Fields.writeBytes(out, subscription.getValue().snapshot());
        }
        copies.writeTo(out);
    }

    /**
     * Replaces every subscription with those {@link #writeTo} wrote, read from the snapshot {@code file}.
     *
     * @throws io.spool.queue.CorruptStateException when a subscription's state cannot be read.
     */
    void readFrom(final ByteBuf in, final Path file)
    {
        subscriptions.clear();
        created.clear();
        for (int i = 0, count = in.readIntLE(); i < count; i++)
        {
            final CreateSubscription create = QueueEntryDescriptor.decodeCreateSubscription(
                ByteString.copyFrom(Fields.readBytes(in)));
            subscriptions.put(create.subscription(),
                ReplicatedPartitionState.restore(settingsOf(create), file, Fields.readBytes(in)));
            created.put(create.subscription(), create);
        }
        copies.readFrom(in, this::deadLetterTopic);
    }

    /** The subscription's state here, or null; for comparing nodes. */
    ReplicatedPartitionState state(final String subscription)
    {
        return subscriptions.get(subscription);
    }

    /**
     * Owes a copy of each message that went dead at {@code timeMillis} to the subscription's dead-letter topic; a
     * subscription without one keeps them dead and names them in the log.
     */
    private void oweDeadLetters(final String subscription, final ReplicatedPartitionState state,
        final long timeMillis)
    {
        final String deadLetterTopic = deadLetterTopic(subscription);
        for (final DeadLetter dead : state.takeDeadLetters())
        {
            if (deadLetterTopic != null)
            {
                copies.owe(subscription, deadLetterTopic, dead, timeMillis);
            }
            else
            {
                LOGGER.info("{}-{} subscription {}: offset {} is dead ({}, {} deliveries); it has no dead-letter " +
                    "topic to copy it to", topic, partition, subscription, dead.offset(), dead.reason(),
                    dead.deliveryCount());
            }
        }
    }

    private QueueReply unknown(final String subscription)
    {
        return QueueReply.refused(QueueEntryDescriptor.REFUSAL_UNKNOWN_SUBSCRIPTION, subscription);
    }
}
