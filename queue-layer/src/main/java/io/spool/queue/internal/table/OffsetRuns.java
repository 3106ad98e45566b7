package io.spool.queue.internal.table;

import java.util.Arrays;

/**
 * Runs of consecutive offsets that share one value (a time), appended in offset order and dropped from the oldest:
 * a run of a hundred offsets costs 20 bytes. Grows by doubling, reusing the room its dropped runs leave, so
 * steady-state work allocates nothing. Not thread-safe: owned by the subscription partition's thread.
 */
final class OffsetRuns
{
    /** Bytes per run: start offset, length and value. */
    static final int BYTES_PER_RUN = 2 * Long.BYTES + Integer.BYTES;
    private static final int INITIAL_RUNS = 64;

    private long[] from = new long[INITIAL_RUNS];
    private int[] length = new int[INITIAL_RUNS];
    private long[] value = new long[INITIAL_RUNS];
    private int head;
    private int tail;

    /** Adds {@code count} offsets from {@code start} on, lengthening the last run if they continue it. */
    void add(final long start, final int count, final long runValue)
    {
        if (tail > head)
        {
            final int last = tail - 1;
            if (from[last] + length[last] == start && value[last] == runValue &&
                length[last] <= Integer.MAX_VALUE - count)
            {
                length[last] += count;
                return;
            }
        }
        if (tail == from.length)
        {
            makeRoom();
        }
        from[tail] = start;
        length[tail] = count;
        value[tail] = runValue;
        tail++;
    }

    int size()
    {
        return tail - head;
    }

    long start(final int i)
    {
        return from[head + i];
    }

    int length(final int i)
    {
        return length[head + i];
    }

    long value(final int i)
    {
        return value[head + i];
    }

    /** One past the last offset of the newest run; only when there is one. */
    long end()
    {
        return from[tail - 1] + length[tail - 1];
    }

    /** The value of the newest run; only when there is one. */
    long lastValue()
    {
        return value[tail - 1];
    }

    void removeFirst()
    {
        if (++head == tail)
        {
            head = 0;
            tail = 0;
        }
    }

    /** Drops the runs wholly below {@code floor}, oldest first, stopping at the first that is not. */
    void dropBelow(final long floor)
    {
        while (tail > head && from[head] + length[head] <= floor)
        {
            removeFirst();
        }
    }

    long footprintBytes()
    {
        return (long)from.length * BYTES_PER_RUN;
    }

    private void makeRoom()
    {
        if (head >= from.length / 2)
        {
            System.arraycopy(from, head, from, 0, tail - head);
            System.arraycopy(length, head, length, 0, tail - head);
            System.arraycopy(value, head, value, 0, tail - head);
            tail -= head;
            head = 0;
        }
        else
        {
            from = Arrays.copyOf(from, from.length * 2);
            length = Arrays.copyOf(length, length.length * 2);
            value = Arrays.copyOf(value, value.length * 2);
        }
    }
}
