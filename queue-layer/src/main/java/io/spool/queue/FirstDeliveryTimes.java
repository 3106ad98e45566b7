package io.spool.queue;

import org.agrona.collections.Long2LongHashMap;

import java.util.Arrays;

/**
 * When each delivered message of a subscription partition was first delivered. Not thread-safe: owned by the
 * subscription partition's thread.
 * <p>
 * Design note: the read cursor hands out new offsets in order, and an acquired batch shares one clock reading,
 * so first-delivery times form runs of consecutive offsets with one time each. Runs are kept in parallel arrays,
 * appended in offset order and dropped once the ack floor passes them: a batch of a hundred costs 20 bytes in all,
 * and held records need no time field. Only a message first delivered after the cursor went past it (one that
 * waited for its message group or its delivery time) gets an entry of its own in a small map.
 */
final class FirstDeliveryTimes
{
    static final long UNKNOWN = -1;
    /** Bytes per run: start offset, length and time. */
    static final int BYTES_PER_RUN = 2 * Long.BYTES + Integer.BYTES;
    private static final int INITIAL_RUNS = 64;

    private long[] from = new long[INITIAL_RUNS];
    private int[] length = new int[INITIAL_RUNS];
    private long[] time = new long[INITIAL_RUNS];
    private int head;
    private int tail;
    private final Long2LongHashMap outOfOrder = new Long2LongHashMap(UNKNOWN);

    /** The message at {@code offset} was delivered for the first time at {@code timeMillis}. */
    void delivered(final long offset, final long timeMillis)
    {
        if (tail > head)
        {
            final int last = tail - 1;
            final long end = from[last] + length[last];
            if (end == offset && time[last] == timeMillis && length[last] < Integer.MAX_VALUE)
            {
                length[last]++;
                return;
            }
            if (offset < end)
            {
                outOfOrder.put(offset, timeMillis);
                return;
            }
        }
        append(offset, 1, timeMillis);
    }

    /** Restores a run read from a snapshot; runs arrive in offset order, single out-of-order entries anywhere. */
    void restore(final long start, final int count, final long timeMillis)
    {
        if (tail == head || start >= from[tail - 1] + length[tail - 1])
        {
            append(start, count, timeMillis);
            return;
        }
        for (long offset = start, end = start + count; offset < end; offset++)
        {
            outOfOrder.put(offset, timeMillis);
        }
    }

    /** The first delivery time of a delivered message, or {@link #UNKNOWN}. */
    long timeOf(final long offset)
    {
        if (!outOfOrder.isEmpty())
        {
            final long single = outOfOrder.get(offset);
            if (single != UNKNOWN)
            {
                return single;
            }
        }
        int low = head;
        int high = tail - 1;
        // New deliveries are looked up right after they join the last run.
        if (high >= low && from[high] <= offset && offset < from[high] + length[high])
        {
            return time[high];
        }
        while (low <= high)
        {
            final int mid = (low + high) >>> 1;
            if (from[mid] > offset)
            {
                high = mid - 1;
            }
            else if (from[mid] + length[mid] <= offset)
            {
                low = mid + 1;
            }
            else
            {
                return time[mid];
            }
        }
        return UNKNOWN;
    }

    /** The message is acked or dead: its time is no longer needed. */
    void settled(final long offset)
    {
        if (!outOfOrder.isEmpty())
        {
            outOfOrder.remove(offset);
        }
    }

    /** Drops the runs wholly below the ack floor. */
    void trimBelow(final long floor)
    {
        while (head < tail && from[head] + length[head] <= floor)
        {
            head++;
        }
        if (head == tail)
        {
            head = 0;
            tail = 0;
        }
    }

    int runCount()
    {
        return tail - head;
    }

    long runStart(final int i)
    {
        return from[head + i];
    }

    int runLength(final int i)
    {
        return length[head + i];
    }

    long runTime(final int i)
    {
        return time[head + i];
    }

    Long2LongHashMap outOfOrder()
    {
        return outOfOrder;
    }

    long footprintBytes()
    {
        return (long)from.length * BYTES_PER_RUN + (long)outOfOrder.capacity() * 2 * Long.BYTES;
    }

    private void append(final long start, final int count, final long timeMillis)
    {
        if (tail == from.length)
        {
            if (head >= from.length / 2)
            {
                System.arraycopy(from, head, from, 0, tail - head);
                System.arraycopy(length, head, length, 0, tail - head);
                System.arraycopy(time, head, time, 0, tail - head);
                tail -= head;
                head = 0;
            }
            else
            {
                from = Arrays.copyOf(from, from.length * 2);
                length = Arrays.copyOf(length, length.length * 2);
                time = Arrays.copyOf(time, time.length * 2);
            }
        }
        from[tail] = start;
        length[tail] = count;
        time[tail] = timeMillis;
        tail++;
    }
}
