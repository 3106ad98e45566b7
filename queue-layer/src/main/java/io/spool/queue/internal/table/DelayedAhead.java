package io.spool.queue.internal.table;

import org.agrona.collections.Long2LongHashMap;

/**
 * Messages the read-ahead found, past the read cursor, whose delivery time (published with a delay or a delivery
 * time) has not come: they cannot be received, so they count as delayed, not ready, from the moment they are
 * stored, though the cursor has not met them. A message leaves when its time comes (it is then ready, unmet, as any
 * message past the cursor), when the cursor meets it (and puts it with the other delayed messages if it is still not
 * due), or when it expires ahead. Their frame bytes are kept too, for the overflow limit's count of ready bytes.
 * Not thread-safe: owned by the subscription partition's thread.
 * <p>
 * Design note: this only counts, and holds no record: the cursor still meets every message in offset order and
 * decides what it becomes, so what is journaled and what a restart rebuilds stay as they were; after a restart the
 * read-ahead finds the delayed messages again. Due times come from a heap that keeps an entry until its time, as
 * {@link ExpiryQueue} does, so that the cursor meeting a message costs a map removal and no heap work.
 */
public final class DelayedAhead
{
    private static final long NOT_HELD = -1;

    /** The size of each message held, by offset. */
    private final Long2LongHashMap sizes = new Long2LongHashMap(NOT_HELD);
    private final ExpiryQueue dueTimes = new ExpiryQueue();
    private long bytes;

    /**
     * The read-ahead found the message at {@code offset}, not met by the cursor, due at {@code deliverAt};
     * {@code size} is its frame's length in the log.
     */
    public void found(final long offset, final long deliverAt, final int size)
    {
        if (sizes.get(offset) == NOT_HELD)
        {
            sizes.put(offset, size);
            bytes += size;
            dueTimes.add(deliverAt, offset);
        }
    }

    /** Whether the message at {@code offset}, past the cursor, waits for its delivery time. */
    public boolean holds(final long offset)
    {
        return !sizes.isEmpty() && sizes.containsKey(offset);
    }

    /**
     * The message stops counting as delayed ahead: the cursor met it or it expired.
     *
     * @return whether it counted.
     */
    public boolean release(final long offset)
    {
        if (sizes.isEmpty())
        {
            return false;
        }
        final long size = sizes.remove(offset);
        if (size == NOT_HELD)
        {
            return false;
        }
        bytes -= size;
        return true;
    }

    /**
     * The messages whose delivery time is at or before {@code now} stop counting as delayed: they are ready.
     *
     * @return how many did.
     */
    public int releaseDue(final long now)
    {
        int released = 0;
        while (!dueTimes.isEmpty() && dueTimes.nextExpiry() <= now)
        {
            if (release(dueTimes.removeFirst()))
            {
                released++;
            }
        }
        return released;
    }

    /** Retention removed every message below {@code end}: those held stop counting as delayed. */
    public void releaseBelow(final long end)
    {
        final Long2LongHashMap.KeyIterator offsets = sizes.keySet().iterator();
        while (offsets.hasNext())
        {
            final long offset = offsets.nextValue();
            if (offset < end)
            {
                bytes -= sizes.get(offset);
                offsets.remove();
            }
        }
    }

    public int count()
    {
        return sizes.size();
    }

    /** The frame bytes of the messages held. */
    public long bytes()
    {
        return bytes;
    }

    public long footprintBytes()
    {
        return dueTimes.footprintBytes() + (long)sizes.capacity() * 2 * Long.BYTES;
    }
}
