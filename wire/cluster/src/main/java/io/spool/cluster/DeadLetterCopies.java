package io.spool.cluster;

import io.netty.buffer.ByteBuf;
import io.spool.queue.DeadReason;
import io.spool.queue.ReplicatedPartitionState.DeadLetter;
import io.spool.wire.Fields;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The dead letters of one partition's subscriptions that their dead-letter topic has not yet confirmed, as the
 * partition's group decided them: every node numbers a subscription's dead letters alike (the ordinal, from 0), and
 * forgets one only when a DEAD_LETTER_COPIED entry says the copy was stored. So whichever node leads owes the same
 * copies, and the ordinal is the copy's producer sequence, which lets the dead-letter topic store a retried copy
 * once ({@code docs/decisions/021-dead-letters-on-a-cluster.md}).
 * <p>
 * Not thread-safe: owned by the partition group's apply thread; {@link #owed()} hands others a copy.
 */
final class DeadLetterCopies
{
    /**
     * A copy {@code deadLetterTopic} owes: the message at {@code offset} died at {@code deathTimeMillis}. The topic
     * is the subscription's setting, not part of the snapshot.
     */
    record OwedCopy(String subscription, String deadLetterTopic, long ordinal, long offset, DeadReason reason,
        int deliveryCount, long deathTimeMillis)
    {
    }

    /** The ordinal the next dead letter of each subscription takes. */
    private final Map<String, Long> nextOrdinal = new TreeMap<>();
    /** By subscription, then by ordinal: the order they are copied in. */
    private final Map<String, TreeMap<Long, OwedCopy>> owed = new TreeMap<>();
    /** Counts every change, so that the apply thread hands the copies on only when they changed. */
    private long changes;

    void owe(final String subscription, final String deadLetterTopic, final DeadLetter dead,
        final long deathTimeMillis)
    {
        final long ordinal = nextOrdinal.getOrDefault(subscription, 0L);
        nextOrdinal.put(subscription, ordinal + 1);
        owed.computeIfAbsent(subscription, s -> new TreeMap<>()).put(ordinal, new OwedCopy(subscription,
            deadLetterTopic, ordinal, dead.offset(), dead.reason(), dead.deliveryCount(), deathTimeMillis));
        changes++;
    }

    /** Forgets the copy; a second confirm of it (an old leader's and a new one's) changes nothing. */
    void copied(final String subscription, final long ordinal)
    {
        final TreeMap<Long, OwedCopy> copies = owed.get(subscription);
        if (copies != null && copies.remove(ordinal) != null)
        {
            changes++;
            if (copies.isEmpty())
            {
                owed.remove(subscription);
            }
        }
    }

    long changes()
    {
        return changes;
    }

    /** Every copy still owed, each subscription's in ordinal order. */
    List<OwedCopy> owed()
    {
        final List<OwedCopy> all = new ArrayList<>();
        owed.values().forEach(copies -> all.addAll(copies.values()));
        return List.copyOf(all);
    }

    /**
     * Little endian: subscription count (int32), then per subscription its name (string), next ordinal (int64),
     * owed count (int32) and per owed copy ordinal (int64), offset (int64), reason code (int8), delivery count
     * (int32) and death time (int64).
     */
    void writeTo(final ByteBuf out)
    {
        out.writeIntLE(nextOrdinal.size());
        nextOrdinal.forEach((subscription, next) ->
        {
            Fields.writeString(out, subscription);
            out.writeLongLE(next);
            final TreeMap<Long, OwedCopy> copies = owed.getOrDefault(subscription, new TreeMap<>());
            out.writeIntLE(copies.size());
            for (final OwedCopy copy : copies.values())
            {
                out.writeLongLE(copy.ordinal()).writeLongLE(copy.offset()).writeByte(copy.reason().code());
                out.writeIntLE(copy.deliveryCount()).writeLongLE(copy.deathTimeMillis());
            }
        });
    }

    /**
     * Replaces everything with what {@link #writeTo} wrote; a snapshot of a version without dead-letter copies
     * leaves nothing owed.
     */
    void readFrom(final ByteBuf in, final Function<String, String> deadLetterTopicOf)
    {
        nextOrdinal.clear();
        owed.clear();
        changes++;
        if (!in.isReadable())
        {
            return;
        }
        for (int i = 0, subscriptions = in.readIntLE(); i < subscriptions; i++)
        {
            final String subscription = Fields.readString(in);
            nextOrdinal.put(subscription, in.readLongLE());
            for (int c = 0, count = in.readIntLE(); c < count; c++)
            {
                final OwedCopy copy = new OwedCopy(subscription, deadLetterTopicOf.apply(subscription),
                    in.readLongLE(), in.readLongLE(),
                    DeadReason.fromCode(in.readByte()), in.readIntLE(), in.readLongLE());
                owed.computeIfAbsent(subscription, s -> new TreeMap<>()).put(copy.ordinal(), copy);
            }
        }
    }
}
