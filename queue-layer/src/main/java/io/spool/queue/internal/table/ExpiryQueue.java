package io.spool.queue.internal.table;

import java.util.Arrays;

/**
 * Messages with a time to live, ordered by expiry: a binary min-heap of (expiry, offset) pairs in two primitive
 * arrays, 16 bytes per message. Not thread-safe: owned by the subscription partition's thread.
 * <p>
 * Design note: entries are never removed when a message is acked, only when they come due; the owner then checks
 * whether the message still needs expiring. That keeps an ack free of heap work, and costs at most one stale entry
 * per message until its expiry passes.
 */
public final class ExpiryQueue
{
    /** Bytes per queued message: expiry and offset. */
    static final int BYTES_PER_ENTRY = 2 * Long.BYTES;

    private long[] expiries = new long[64];
    private long[] offsets = new long[64];
    private int size;

    public void add(final long expireAt, final long offset)
    {
        if (size == expiries.length)
        {
            expiries = Arrays.copyOf(expiries, size * 2);
            offsets = Arrays.copyOf(offsets, size * 2);
        }
        int at = size++;
        while (at > 0)
        {
            final int parent = (at - 1) >>> 1;
            if (expiries[parent] <= expireAt)
            {
                break;
            }
            expiries[at] = expiries[parent];
            offsets[at] = offsets[parent];
            at = parent;
        }
        expiries[at] = expireAt;
        offsets[at] = offset;
    }

    public boolean isEmpty()
    {
        return size == 0;
    }

    /** The earliest expiry; only when not empty. */
    public long nextExpiry()
    {
        return expiries[0];
    }

    /** Removes the entry with the earliest expiry and returns its offset; only when not empty. */
    public long removeFirst()
    {
        final long offset = offsets[0];
        final int last = --size;
        final long expireAt = expiries[last];
        final long lastOffset = offsets[last];
        int at = 0;
        while (true)
        {
            int child = 2 * at + 1;
            if (child >= size)
            {
                break;
            }
            if (child + 1 < size && expiries[child + 1] < expiries[child])
            {
                child++;
            }
            if (expiries[child] >= expireAt)
            {
                break;
            }
            expiries[at] = expiries[child];
            offsets[at] = offsets[child];
            at = child;
        }
        expiries[at] = expireAt;
        offsets[at] = lastOffset;
        return offset;
    }

    public long footprintBytes()
    {
        return (long)expiries.length * BYTES_PER_ENTRY;
    }
}
