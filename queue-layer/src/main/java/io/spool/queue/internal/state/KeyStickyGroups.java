package io.spool.queue.internal.state;

import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongArrayQueue;

import java.util.function.LongConsumer;

/**
 * Key-sticky delivery (Pulsar Key_Shared): each group belongs to the consumer that took its oldest live message, for
 * as long as the group has a message not yet acked or dead; messages of the group that another consumer meets
 * wait in the owner's queue, in offset order. A consumer that goes gives up its groups and its queue, so the next
 * consumer to ask takes them over: joining or leaving never stalls a key. Not thread-safe: owned by the subscription
 * partition's thread.
 * <p>
 * Design note: ownership lives with the group's unsettled messages rather than with its in-flight ones, so a
 * message released by its owner (nack, lock expiry) returns to the owner and never overtakes older messages of its
 * key that wait in the owner's queue.
 */
final class KeyStickyGroups
{
    static final long NONE = -1;
    private static final int UNOWNED = -1;

    /** Group by offset of every unsettled message met so far. */
    private final Long2LongHashMap groupByOffset = new Long2LongHashMap(NONE);
    /** Per group: owner in the high 32 bits, unsettled messages in the low 32. */
    private final Long2LongHashMap ownerAndCount = new Long2LongHashMap(NONE);
    private final Int2ObjectHashMap<LongArrayQueue> queues = new Int2ObjectHashMap<>();
    private int queued;

    /** Whether the message was met before (its group is known). */
    boolean knows(final long offset)
    {
        return groupByOffset.containsKey(offset);
    }

    int groupOf(final long offset)
    {
        return (int)groupByOffset.get(offset);
    }

    /**
     * A consumer asks for a message of {@code group}: it gets it if the group is its own or has no owner (it becomes
     * the owner); otherwise the message waits in the owner's queue.
     *
     * @return true if {@code consumer} may take the message now.
     */
    boolean take(final long offset, final int group, final int consumer)
    {
        final long entry = ownerAndCount.get(group);
        final boolean known = groupByOffset.containsKey(offset);
        final int count = (entry == NONE ? 0 : (int)entry) + (known ? 0 : 1);
        groupByOffset.put(offset, group);
        final int owner = entry == NONE ? UNOWNED : (int)(entry >>> 32);
        if (owner == UNOWNED || owner == consumer)
        {
            ownerAndCount.put(group, pack(consumer, count));
            return true;
        }
        ownerAndCount.put(group, pack(owner, count));
        queueOf(owner).addLong(offset);
        queued++;
        return false;
    }

    /** The next message waiting for {@code consumer}, or {@link #NONE}. */
    long nextQueued(final int consumer)
    {
        final LongArrayQueue queue = queues.get(consumer);
        if (queue == null || queue.isEmpty())
        {
            return NONE;
        }
        queued--;
        return queue.pollLong();
    }

    /** The message was acked or went dead: its group lives on only if it has other unsettled messages. */
    void settled(final long offset)
    {
        final long group = groupByOffset.remove(offset);
        if (group == NONE)
        {
            return;
        }
        final long entry = ownerAndCount.get(group);
        final int count = (int)entry - 1;
        if (count <= 0)
        {
            ownerAndCount.remove(group);
        }
        else
        {
            ownerAndCount.put(group, pack((int)(entry >>> 32), count));
        }
    }

    /** A consumer went: its groups have no owner any more and its waiting messages go to {@code toReady}. */
    void consumerGone(final int consumer, final LongConsumer toReady)
    {
        final LongArrayQueue queue = queues.remove(consumer);
        if (queue != null)
        {
            while (!queue.isEmpty())
            {
                queued--;
                toReady.accept(queue.pollLong());
            }
        }
        final Long2LongHashMap.EntryIterator entries = ownerAndCount.entrySet().iterator();
        while (entries.hasNext())
        {
            entries.next();
            if ((int)(entries.getLongValue() >>> 32) == consumer)
            {
                entries.setValue(pack(UNOWNED, (int)entries.getLongValue()));
            }
        }
    }

    /**
     * Messages waiting in owners' queues; the read cursor stops at {@link MessageGroups#MAX_WAITING}, so an owner
     * that stops taking holds back at most that many messages of other keys.
     */
    int queuedCount()
    {
        return queued;
    }

    long footprintBytes()
    {
        return 2L * Long.BYTES * (groupByOffset.capacity() + ownerAndCount.capacity());
    }

    private LongArrayQueue queueOf(final int consumer)
    {
        LongArrayQueue queue = queues.get(consumer);
        if (queue == null)
        {
            queue = new LongArrayQueue(NONE);
            queues.put(consumer, queue);
        }
        return queue;
    }

    private static long pack(final int owner, final int count)
    {
        return ((long)owner << 32) | (count & 0xFFFFFFFFL);
    }
}
