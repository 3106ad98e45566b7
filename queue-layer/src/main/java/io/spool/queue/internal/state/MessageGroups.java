package io.spool.queue.internal.state;

import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.LongHashSet;

/**
 * The open message groups of one subscription partition: each group's head (the lowest offset of the group not yet
 * acked or dead) and the messages behind it, in offset order, and which of those are out of line: taken with the
 * head in one run (held by the consumer that holds the head), or waiting for a delay in their place. Not thread-safe:
 * owned by the subscription partition's thread.
 * <p>
 * Design note: a group exists only while it has an unsettled message, so memory follows the open groups and the
 * waiting messages (one hash entry each, about 25 bytes), not the number of groups ever seen. Waiting messages are
 * chained through a map keyed by offset instead of a queue object per group, so opening and closing groups on the
 * delivery path allocates nothing once the maps have grown.
 */
public final class MessageGroups
{
    static final long NONE = -1;
    /**
     * Messages a partition lets wait behind their group's head before the read cursor stops: past it, a hot group
     * would hold the memory of the whole backlog.
     */
    public static final int MAX_WAITING = 1 << 16;

    private final Long2LongHashMap headByGroup = new Long2LongHashMap(NONE);
    private final Long2LongHashMap groupByHead = new Long2LongHashMap(NONE);
    private final Long2LongHashMap tailByGroup = new Long2LongHashMap(NONE);
    private final Long2LongHashMap nextInGroup = new Long2LongHashMap(NONE);
    /** Messages behind their group's head that hold a record: held in the head's run, or delayed. */
    private final LongHashSet outOfLine = new LongHashSet();
    private int waiting;

    /**
     * A message of {@code group} met in offset order: it heads the group if the group had no open message, else it
     * waits behind the last one.
     *
     * @return true if the message heads its group and may be delivered.
     */
    boolean open(final int group, final long offset)
    {
        final long tail = tailByGroup.get(group);
        if (tail == NONE)
        {
            headByGroup.put(group, offset);
            groupByHead.put(offset, group);
            tailByGroup.put(group, offset);
            return true;
        }
        nextInGroup.put(tail, offset);
        tailByGroup.put(group, offset);
        waiting++;
        return false;
    }

    /**
     * The message at {@code offset} was acked or went dead; if it headed a group, the next waiting message (if any)
     * heads the group now.
     *
     * @return the offset of the new head, or {@link #NONE}.
     */
    long settled(final long offset)
    {
        if (hasNoHeads())
        {
            return NONE;
        }
        final long group = groupByHead.remove(offset);
        if (group == NONE)
        {
            return NONE;
        }
        final long next = nextInGroup.remove(offset);
        if (next == NONE)
        {
            headByGroup.remove(group);
            tailByGroup.remove(group);
            return NONE;
        }
        waiting--;
        headByGroup.put(group, next);
        groupByHead.put(next, group);
        return next;
    }

    /** The message after {@code offset} in its group, settled or not, or {@link #NONE}. */
    long next(final long offset)
    {
        return nextInGroup.get(offset);
    }

    /** Whether the message at {@code offset} heads its group. */
    boolean isHead(final long offset)
    {
        return groupByHead.containsKey(offset);
    }

    /** The message at {@code offset}, behind its group's head, now holds a record: taken in a run. */
    void outOfLine(final long offset)
    {
        outOfLine.add(offset);
    }

    /**
     * The message at {@code offset} holds no record behind its group's head any more: settled, back in its place,
     * or the group's head now.
     *
     * @return whether it was out of line behind a head.
     */
    boolean backInLine(final long offset)
    {
        return !outOfLine.isEmpty() && outOfLine.remove(offset);
    }

    /** Whether no ordered group has a message out: then settling a message frees no other. */
    boolean hasNoHeads()
    {
        return groupByHead.isEmpty();
    }

    /** Messages waiting behind their group's head. */
    int waitingCount()
    {
        return waiting;
    }

    long footprintBytes()
    {
        return 2L * Long.BYTES * (headByGroup.capacity() + groupByHead.capacity() + tailByGroup.capacity() +
            nextInGroup.capacity()) + (long)Long.BYTES * outOfLine.capacity();
    }
}
