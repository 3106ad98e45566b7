package io.spool.queue.internal.table;

import org.agrona.collections.Long2LongHashMap;

/**
 * When each delivered message of a subscription partition was first delivered. Not thread-safe: owned by the
 * subscription partition's thread.
 * <p>
 * Design note: the read cursor hands out new offsets in order, and an acquired batch shares one clock reading,
 * so first-delivery times form runs of consecutive offsets with one time each. Runs are kept as {@link OffsetRuns},
 * appended in offset order and dropped once the ack floor passes them: a batch of a hundred costs 20 bytes in all,
 * and held records need no time field. Only a message first delivered after the cursor went past it (one that
 * waited for its message group or its delivery time) gets an entry of its own in a small map.
 */
public final class FirstDeliveryTimes
{
    public static final long UNKNOWN = -1;
    /** Bytes per run: start offset, length and time. */
    public static final int BYTES_PER_RUN = OffsetRuns.BYTES_PER_RUN;

    private final OffsetRuns runs = new OffsetRuns();
    private final Long2LongHashMap outOfOrder = new Long2LongHashMap(UNKNOWN);

    /** The message at {@code offset} was delivered for the first time at {@code timeMillis}. */
    public void delivered(final long offset, final long timeMillis)
    {
        delivered(offset, 1, timeMillis);
    }

    /** The {@code count} messages from {@code start} on were first delivered at {@code timeMillis}, in order. */
    public void delivered(final long start, final int count, final long timeMillis)
    {
        if (runs.size() > 0 && start < runs.end())
        {
            for (long offset = start, end = start + count; offset < end; offset++)
            {
                outOfOrder.put(offset, timeMillis);
            }
            return;
        }
        runs.add(start, count, timeMillis);
    }

    /** Restores a run read from a snapshot; runs arrive in offset order, single out-of-order entries anywhere. */
    public void restore(final long start, final int count, final long timeMillis)
    {
        if (runs.size() == 0 || start >= runs.end())
        {
            runs.add(start, count, timeMillis);
            return;
        }
        for (long offset = start, end = start + count; offset < end; offset++)
        {
            outOfOrder.put(offset, timeMillis);
        }
    }

    /** The first delivery time of a delivered message, or {@link #UNKNOWN}. */
    public long timeOf(final long offset)
    {
        if (!outOfOrder.isEmpty())
        {
            final long single = outOfOrder.get(offset);
            if (single != UNKNOWN)
            {
                return single;
            }
        }
        int low = 0;
        int high = runs.size() - 1;
        // New deliveries are looked up right after they join the last run.
        if (high >= low && runs.start(high) <= offset && offset < runs.end())
        {
            return runs.lastValue();
        }
        while (low <= high)
        {
            final int mid = (low + high) >>> 1;
            if (runs.start(mid) > offset)
            {
                high = mid - 1;
            }
            else if (runs.start(mid) + runs.length(mid) <= offset)
            {
                low = mid + 1;
            }
            else
            {
                return runs.value(mid);
            }
        }
        return UNKNOWN;
    }

    /** The message is acked or dead: its time is no longer needed. */
    public void settled(final long offset)
    {
        if (!outOfOrder.isEmpty())
        {
            outOfOrder.remove(offset);
        }
    }

    /** The {@code count} messages from {@code from} on were acked: {@link #settled} for each, if any was out of order.
     * */
    public void settledRun(final long from, final int count)
    {
        if (outOfOrder.isEmpty())
        {
            return;
        }
        for (long offset = from; offset < from + count; offset++)
        {
            settled(offset);
        }
    }

    /** Drops the runs wholly below the ack floor. */
    public void trimBelow(final long floor)
    {
        runs.dropBelow(floor);
    }

    public int runCount()
    {
        return runs.size();
    }

    public long runStart(final int i)
    {
        return runs.start(i);
    }

    public int runLength(final int i)
    {
        return runs.length(i);
    }

    public long runTime(final int i)
    {
        return runs.value(i);
    }

    public Long2LongHashMap outOfOrder()
    {
        return outOfOrder;
    }

    public long footprintBytes()
    {
        return runs.footprintBytes() + (long)outOfOrder.capacity() * 2 * Long.BYTES;
    }
}
