package io.spool.log.internal.pipeline;

import org.agrona.collections.Long2LongHashMap;

/**
 * The dedup ids a log has stored inside its window, each with the offset it was first stored at. Used only by the
 * log's append thread, so it takes no lock; rebuilt on open from the records inside the window. Entries leave in
 * arrival order once older than the window, amortised over appends. Not thread-safe.
 */
final class DedupIndex
{
    static final long NOT_FOUND = -1;

    private final long windowMillis;
    private final Long2LongHashMap offsetByHigh = new Long2LongHashMap(NOT_FOUND);
    private final Long2LongHashMap lowByHigh = new Long2LongHashMap(0);
    private long[] fifo = new long[3 * 64];
    private int head;
    private int size;

    DedupIndex(final long windowMillis)
    {
        this.windowMillis = windowMillis;
    }

    long windowMillis()
    {
        return windowMillis;
    }

    int size()
    {
        return offsetByHigh.size();
    }

    /**
     * @return the offset the id was first stored at inside the window, or {@link #NOT_FOUND}.
     */
    long find(final long high, final long low, final long nowMillis)
    {
        expire(nowMillis);
        final long offset = offsetByHigh.get(high);
        return offset != NOT_FOUND && lowByHigh.get(high) == low ? offset : NOT_FOUND;
    }

    void add(final long high, final long low, final long offset, final long timestamp)
    {
        offsetByHigh.put(high, offset);
        lowByHigh.put(high, low);
        if (size * 3 == fifo.length)
        {
            grow();
        }
        final int at = ((head + size) % (fifo.length / 3)) * 3;
        fifo[at] = high;
        fifo[at + 1] = offset;
        fifo[at + 2] = timestamp;
        size++;
    }

    private void expire(final long nowMillis)
    {
        final int slots = fifo.length / 3;
        while (size > 0 && fifo[head * 3 + 2] <= nowMillis - windowMillis)
        {
            final long high = fifo[head * 3];
            if (offsetByHigh.get(high) == fifo[head * 3 + 1])
            {
                offsetByHigh.remove(high);
                lowByHigh.remove(high);
            }
            head = (head + 1) % slots;
            size--;
        }
    }

    private void grow()
    {
        final int slots = fifo.length / 3;
        final long[] bigger = new long[fifo.length * 2];
        for (int i = 0; i < size; i++)
        {
            System.arraycopy(fifo, ((head + i) % slots) * 3, bigger, i * 3, 3);
        }
        fifo = bigger;
        head = 0;
    }
}
