package io.spool.queue.internal.table;

import org.agrona.collections.Long2LongHashMap;

/**
 * Per-offset state of one subscription partition from the ack floor upward, in a ring of primitive arrays indexed
 * by {@code offset & (capacity - 1)}. Not thread-safe: owned by the subscription partition's thread.
 * <p>
 * Per offset of its capacity (a power of two) it keeps three bits (settled, dead, ready) and a delivery count
 * byte: 11 bits. So a window of ten million offsets with every other one acked costs 23 MB (capacity 2^24),
 * while the per-delivery fields (holder, lock deadline, timer links) live in {@link InFlightTable} only for pages
 * that hold a message.
 * <p>
 * Design note: delivery counts above 254 are rare (only with high or disabled delivery limits), so they spill into
 * a hash map keyed by offset instead of widening every slot.
 */
public final class OffsetWindow
{
    public static final int MAX_CAPACITY = 1 << 30;
    private static final int MIN_CAPACITY = 1 << 10;
    private static final int COUNT_SPILLED = 0xFF;

    private long floor;
    private int mask;
    private long[] settled;
    private long[] dead;
    private long[] ready;
    private byte[] counts;
    private final Long2LongHashMap spilledCounts = new Long2LongHashMap(0);
    private int readyCount;
    private long lowestReadyHint = Long.MAX_VALUE;

    public OffsetWindow(final long floor)
    {
        this.floor = floor;
        allocate(MIN_CAPACITY);
    }

    public long floor()
    {
        return floor;
    }

    public int capacity()
    {
        return mask + 1;
    }

    /** Grows the ring so that {@code offset} has a slot. Allocates only when it grows. */
    public void ensureCovers(final long offset)
    {
        final long needed = offset - floor + 1;
        if (needed > capacity())
        {
            if (needed > MAX_CAPACITY)
            {
                throw new IllegalStateException("offset " + offset + " is " + needed + " past the ack floor " +
                    floor + "; the window holds at most " + MAX_CAPACITY + " offsets");
            }
            grow((int)needed);
        }
    }

    public boolean isSettled(final long offset)
    {
        return bit(settled, offset);
    }

    public boolean isDead(final long offset)
    {
        return bit(dead, offset);
    }

    public boolean isReady(final long offset)
    {
        return bit(ready, offset);
    }

    public void settle(final long offset, final boolean isDead)
    {
        setBit(settled, offset);
        if (isDead)
        {
            setBit(dead, offset);
        }
    }

    /**
     * How many of the {@code max} offsets from {@code offset} on, up to the end of its word of 64, are unsettled
     * with delivery count {@code count}, counted from {@code offset} to the first that is not; 0 for a count that
     * spills or is 0.
     */
    public int unsettledWithCount(final long offset, final int max, final int count)
    {
        if (count < 1 || count >= COUNT_SPILLED)
        {
            return 0;
        }
        final int slot = (int)offset & mask;
        final int shift = slot & 63;
        final long settledAhead = settled[slot >>> 6] >>> shift;
        final int limit = Math.min(Math.min(max, 64 - shift), Long.numberOfTrailingZeros(settledAhead));
        int unsettled = 0;
        while (unsettled < limit && (counts[slot + unsettled] & 0xFF) == count)
        {
            unsettled++;
        }
        return unsettled;
    }

    /** Settles, as acked, the {@code count} offsets from {@code offset} on, all in one word of 64. */
    public void settleRun(final long offset, final int count)
    {
        final int slot = (int)offset & mask;
        settled[slot >>> 6] |= (count == 64 ? -1L : (1L << count) - 1) << (slot & 63);
    }

    /**
     * Settles, as acked, the offsets from {@code from} up to {@code end}, none of them ready or held. From the floor
     * it moves the floor to {@code end}, so that a range however long costs at most one pass over the window's
     * slots; above the floor it sets their bits, a word of 64 at a time.
     */
    public void settleRange(final long from, final long end)
    {
        if (from != floor)
        {
            ensureCovers(end - 1);
            for (long offset = from; offset < end; )
            {
                final int run = (int)Math.min(64 - (offset & 63), end - offset);
                settleRun(offset, run);
                offset += run;
            }
            return;
        }
        for (long offset = floor, cleared = Math.min(end, floor + capacity()); offset < cleared; offset++)
        {
            final int slot = (int)offset & mask;
            if ((counts[slot] & 0xFF) == COUNT_SPILLED)
            {
                spilledCounts.remove(offset);
            }
            counts[slot] = 0;
            clearBit(settled, offset);
            clearBit(dead, offset);
        }
        floor = end;
    }

    public void markReady(final long offset)
    {
        setBit(ready, offset);
        readyCount++;
        if (offset < lowestReadyHint)
        {
            lowestReadyHint = offset;
        }
    }

    public void clearReady(final long offset)
    {
        clearBit(ready, offset);
        readyCount--;
    }

    public int readyCount()
    {
        return readyCount;
    }

    /** The lowest ready offset, or -1; scans 64 offsets per step from a hint that only moves down on release. */
    public long lowestReady()
    {
        if (readyCount == 0)
        {
            return -1;
        }
        long offset = Math.max(lowestReadyHint, floor);
        final long end = floor + capacity();
        while (offset < end)
        {
            final int slot = (int)offset & mask;
            final long word = ready[slot >>> 6] & (-1L << slot);
            if (word != 0)
            {
                final long found = offset + (Long.numberOfTrailingZeros(word) - (slot & 63));
                lowestReadyHint = found;
                return found;
            }
            offset += 64 - (slot & 63);
        }
        throw new IllegalStateException("ready count " + readyCount + " but no ready bit in the window from " +
            floor);
    }

    public int deliveryCount(final long offset)
    {
        final int count = counts[(int)offset & mask] & 0xFF;
        return count == COUNT_SPILLED ? (int)spilledCounts.get(offset) : count;
    }

    public void deliveryCount(final long offset, final int count)
    {
        final int slot = (int)offset & mask;
        if (count >= COUNT_SPILLED)
        {
            counts[slot] = (byte)COUNT_SPILLED;
            spilledCounts.put(offset, count);
        }
        else
        {
            if ((counts[slot] & 0xFF) == COUNT_SPILLED)
            {
                spilledCounts.remove(offset);
            }
            counts[slot] = (byte)count;
        }
    }

    /**
     * Moves the floor up past contiguous settled offsets below {@code limit}, clearing their slots for reuse: a
     * word of 64 offsets at a time, since in-order acks move the floor by whole runs.
     *
     * @return the new floor.
     */
    public long advanceFloor(final long limit)
    {
        while (floor < limit)
        {
            final int slot = (int)floor & mask;
            final int shift = slot & 63;
            final int word = slot >>> 6;
            final int run = (int)Math.min(Math.min(Long.numberOfTrailingZeros(~(settled[word] >>> shift)),
                64 - shift), limit - floor);
            if (run == 0)
            {
                break;
            }
            for (int i = 0; i < run; i++)
            {
                if ((counts[slot + i] & 0xFF) == COUNT_SPILLED)
                {
                    spilledCounts.remove(floor + i);
                }
                counts[slot + i] = 0;
            }
            final long bits = (run == 64 ? -1L : (1L << run) - 1) << shift;
            settled[word] &= ~bits;
            dead[word] &= ~bits;
            floor += run;
        }
        return floor;
    }

    /** The settled bits of the 64 offsets from {@code offset} on, lowest offset in the lowest bit. */
    public long settledBits(final long offset)
    {
        return bits64(settled, offset);
    }

    public long deadBits(final long offset)
    {
        return bits64(dead, offset);
    }

    /** Bytes held by this window's arrays and maps, counted from their real capacities. */
    public long footprintBytes()
    {
        return 3L * settled.length * Long.BYTES + counts.length + (long)spilledCounts.capacity() * 2 * Long.BYTES;
    }

    private long bits64(final long[] bitmap, final long offset)
    {
        final int slot = (int)offset & mask;
        final int shift = slot & 63;
        final int word = slot >>> 6;
        if (shift == 0)
        {
            return bitmap[word];
        }
        return (bitmap[word] >>> shift) | (bitmap[(word + 1) & (bitmap.length - 1)] << (64 - shift));
    }

    private boolean bit(final long[] bitmap, final long offset)
    {
        final int slot = (int)offset & mask;
        return (bitmap[slot >>> 6] & (1L << slot)) != 0;
    }

    private void setBit(final long[] bitmap, final long offset)
    {
        final int slot = (int)offset & mask;
        bitmap[slot >>> 6] |= 1L << slot;
    }

    private void clearBit(final long[] bitmap, final long offset)
    {
        final int slot = (int)offset & mask;
        bitmap[slot >>> 6] &= ~(1L << slot);
    }

    private void allocate(final int capacity)
    {
        mask = capacity - 1;
        settled = new long[capacity >>> 6];
        dead = new long[capacity >>> 6];
        ready = new long[capacity >>> 6];
        counts = new byte[capacity];
    }

    private void grow(final int needed)
    {
        final int oldMask = mask;
        final long[] oldSettled = settled;
        final long[] oldDead = dead;
        final long[] oldReady = ready;
        final byte[] oldCounts = counts;
        int capacity = capacity();
        while (capacity < needed)
        {
            capacity <<= 1;
        }
        allocate(capacity);
        for (long offset = floor, end = floor + oldMask + 1; offset < end; offset++)
        {
            final int oldSlot = (int)offset & oldMask;
            final long bit = 1L << oldSlot;
            if ((oldSettled[oldSlot >>> 6] & bit) != 0)
            {
                setBit(settled, offset);
            }
            if ((oldDead[oldSlot >>> 6] & bit) != 0)
            {
                setBit(dead, offset);
            }
            if ((oldReady[oldSlot >>> 6] & bit) != 0)
            {
                setBit(ready, offset);
            }
            counts[(int)offset & mask] = oldCounts[oldSlot];
        }
    }
}
