package io.spool.log.internal.segment;

import java.util.ArrayDeque;

/**
 * Keeps the most recently released closed segments of a store mapped, up to a bound, so that a reader coming back
 * to them (a replay, a queue redelivery, a second consumer group behind the first) does not map them again and
 * take a page fault for every page it touches. Mapping is cheap; the faults that fill a fresh mapping's page table
 * are not: they cost a replay of page-cached data about half its time.
 * <p>
 * An idle mapping pins no memory: its pages are page cache, which the kernel reclaims as it would unmapped ones.
 * The bound is what keeps the process's mapping count and address space flat however many segments the store holds.
 * <p>
 * Lock order: this object's monitor, then a segment's; a segment never calls in here while holding its own.
 * Thread-safe; every call happens once per segment a reader enters or leaves, never per record.
 */
public final class IdleSegmentMappings
{
    private final int capacity;
    /** Least recently released first; holds no segment twice. */
    private final ArrayDeque<Segment> idle;

    /** @param capacity idle segments kept mapped; 0 unmaps a segment as soon as its last reader leaves. */
    public IdleSegmentMappings(final int capacity)
    {
        this.capacity = capacity;
        this.idle = new ArrayDeque<>(capacity + 1);
    }

    /** A closed segment lost its last reference: keep it mapped, unmapping the oldest idle one over the bound. */
    synchronized void released(final Segment segment)
    {
        idle.remove(segment);
        idle.addLast(segment);
        while (idle.size() > capacity)
        {
            idle.pollFirst().unmapIfIdle();
        }
    }

    /** The segment is closing or deleted: unmap it now if nobody reads it, and stop tracking it. */
    synchronized void evict(final Segment segment)
    {
        if (idle.remove(segment))
        {
            segment.unmapIfIdle();
        }
    }

    /** Unmaps every idle segment: the store is closing. */
    public synchronized void evictAll()
    {
        for (Segment segment = idle.pollFirst(); segment != null; segment = idle.pollFirst())
        {
            segment.unmapIfIdle();
        }
    }
}
