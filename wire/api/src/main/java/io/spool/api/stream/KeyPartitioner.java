package io.spool.api.stream;

import org.agrona.DirectBuffer;

/**
 * Picks a partition: a keyed record goes where Kafka's default partitioner would put it,
 * {@code toPositive(murmur2(key)) % partitions}; a record without a key goes to the next partition in turn.
 * Not thread-safe: the round-robin cursor belongs to one producer.
 */
public final class KeyPartitioner
{
    private int nextSpread;

    public static int partitionForKey(final byte[] key, final int partitions)
    {
        return Murmur2.toPositive(Murmur2.hash(key)) % partitions;
    }

    public static int partitionForKey(final DirectBuffer key, final int offset, final int length, final int partitions)
    {
        return Murmur2.toPositive(Murmur2.hash(key, offset, length)) % partitions;
    }

    /** The partition the next {@link #nextSpreadPartition} call will return, without taking the turn. */
    public int peekSpreadPartition(final int partitions)
    {
        return Integer.remainderUnsigned(nextSpread, partitions);
    }

    /** The partition for a record without a key: each call takes the next one, wrapping around. */
    public int nextSpreadPartition(final int partitions)
    {
        return Integer.remainderUnsigned(nextSpread++, partitions);
    }
}
