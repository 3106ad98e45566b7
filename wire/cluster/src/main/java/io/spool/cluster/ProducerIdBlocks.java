package io.spool.cluster;

import java.util.function.LongSupplier;

/**
 * Kafka producer ids that no other node of the cluster hands out: a block is the index of an entry this node
 * committed to the metadata group (its ANNOUNCE_KAFKA entry), which no other entry of any node can have, shifted
 * left by {@link #BLOCK_BITS}; the ids of a block are its base plus a counter. A node claims a new block at every
 * start and when a block runs out, so ids survive restarts without a file of their own. Thread-safe.
 */
final class ProducerIdBlocks
{
    /** 16 Mi ids a block; a metadata log of 2^39 entries is far off. */
    static final int BLOCK_BITS = 24;
    private static final long BLOCK_SIZE = 1L << BLOCK_BITS;

    private final LongSupplier claim;
    private long base = -1;
    private long next = BLOCK_SIZE;

    /** @param claim commits an entry to the metadata group and returns its index; may block, may throw. */
    ProducerIdBlocks(final LongSupplier claim)
    {
        this.claim = claim;
    }

    /** Takes a block claimed elsewhere (the node's announcement at start), unless one is in use. */
    synchronized void claimed(final long entryIndex)
    {
        if (base < 0)
        {
            base = entryIndex << BLOCK_BITS;
            next = 0;
        }
    }

    synchronized long next()
    {
        if (next == BLOCK_SIZE || base < 0)
        {
            base = claim.getAsLong() << BLOCK_BITS;
            next = 0;
        }
        return base | next++;
    }
}
