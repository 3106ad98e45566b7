package io.spool.queue.internal.table;

/**
 * Which messages ahead of the read cursor the read-ahead found plain (routed here, in no group, due at once, never
 * expiring), so that the cursor delivers them without reading their records a second time: one bit per offset in
 * a ring that grows to span the offsets read ahead of the cursor, at most the expiry's read-ahead
 * ({@code MessageExpiry.READ_AHEAD}). Not thread-safe: owned by the subscription partition's thread.
 * <p>
 * Design note: the read-ahead writes the bit of every offset it reads at or past the cursor, plain or not, and
 * reads each offset once, so a slot always holds the bit of the last offset written there; the ring spans every
 * offset from the cursor to the last one read, so that offset is the one the cursor asks about.
 */
public final class PlainMarks
{
    private static final int MIN_BITS = 1 << 10;

    private long[] bits = new long[MIN_BITS >>> 6];
    private int mask = MIN_BITS - 1;
    private long highest = -1;

    /** Records whether the message at {@code offset} is plain; {@code cursor} is the lowest offset still asked. */
    public void mark(final long offset, final boolean plain, final long cursor)
    {
        if (offset - cursor + 1 > mask + 1)
        {
            grow(offset - cursor + 1, cursor);
        }
        final int slot = (int)offset & mask;
        if (plain)
        {
            bits[slot >>> 6] |= 1L << slot;
        }
        else
        {
            bits[slot >>> 6] &= ~(1L << slot);
        }
        highest = Math.max(highest, offset);
    }

    /** Records the {@code count} messages from {@code from} on as plain, a word of marks at a time. */
    public void markPlain(final long from, final int count, final long cursor)
    {
        final long last = from + count - 1;
        if (last - cursor + 1 > mask + 1)
        {
            grow(last - cursor + 1, cursor);
        }
        long offset = from;
        while (offset <= last)
        {
            final int slot = (int)offset & mask;
            final int inWord = Math.min(64 - (slot & 63), (int)(last - offset + 1));
            bits[slot >>> 6] |= inWord == 64 ? -1L : ((1L << inWord) - 1) << slot;
            offset += inWord;
        }
        highest = Math.max(highest, last);
    }

    /** Only for an offset at or past the cursor that was marked. */
    public boolean isPlain(final long offset)
    {
        return (bits[((int)offset & mask) >>> 6] & (1L << offset)) != 0;
    }

    /**
     * How many offsets from {@code from} on, before {@code end}, are marked plain in a row, read a word of marks at
     * a time. Only for offsets at or past the cursor that were marked.
     */
    public int plainRunLength(final long from, final long end)
    {
        long offset = from;
        while (offset < end)
        {
            final int slot = (int)offset & mask;
            final int inWord = (int)Math.min(64 - (slot & 63), end - offset);
            // Shifted down, the marks above this word's end are zeros, so the run of ones stops there at the latest.
            final int ones = Long.numberOfTrailingZeros(~(bits[slot >>> 6] >>> slot));
            offset += Math.min(ones, inWord);
            if (ones < inWord)
            {
                break;
            }
        }
        return (int)(offset - from);
    }

    public long footprintBytes()
    {
        return (long)bits.length * Long.BYTES;
    }

    private void grow(final long span, final long cursor)
    {
        final long[] old = bits;
        final int oldMask = mask;
        int capacity = mask + 1;
        while (capacity < span)
        {
            capacity <<= 1;
        }
        bits = new long[capacity >>> 6];
        mask = capacity - 1;
        // Both rings hold whole words and an offset's bit sits at offset % 64 in either, so the marks move a word at
        // a time. The first and last words bring bits of offsets outside [cursor, highest]: below the cursor nobody
        // asks, and above the highest every offset is marked, plain or not, before it is asked about.
        for (long offset = cursor & -64L; offset <= highest; offset += 64)
        {
            bits[((int)offset & mask) >>> 6] = old[((int)offset & oldMask) >>> 6];
        }
    }
}
