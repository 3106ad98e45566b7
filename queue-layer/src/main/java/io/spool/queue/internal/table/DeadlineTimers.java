package io.spool.queue.internal.table;

import java.util.Arrays;

/**
 * Lock deadlines and delay due times of held records, on a hierarchical timer wheel whose lists are threaded
 * through {@link InFlightTable}'s previous/next arrays. Expiry visits only the records whose deadline has passed;
 * nothing scans the in-flight set. Not thread-safe: owned by the subscription partition's thread.
 * <p>
 * Four levels of 256 slots: level 0 slots are 8 ms ticks (2 s in all), level 1 slots 2 s (8.7 min), level 2 slots
 * 8.7 min (37 h), level 3 slots 37 h (a year, past every lock and delay bound). A record sits in the finest level
 * that reaches its deadline and moves down a level when the wheel's position enters its slot, as in the Linux
 * kernel's timer wheel.
 * <p>
 * Design note: a timer costs nothing beyond its record (holder, deadline and two links, 20 bytes) and the wheel is
 * a fixed 4 KB of list heads, so delayed messages cost the same as held ones, whatever their spread of due times.
 * A list head is found from its first record alone: the first record's previous link holds the slot's number,
 * encoded below {@link InFlightTable#NIL}, so an ack unlinks in O(1) without a map from deadline to list. The
 * wheel walks tick by tick only while its finest level holds records, and jumps to the next level boundary
 * otherwise, so a long clock jump costs per level turn, not per tick.
 * <p>
 * A run of new offsets acquired together shares one deadline, and deadlines of successive acquires only grow, so
 * such runs skip the wheel: each record is only marked as in a run, the run (first offset, length, deadline) joins a
 * queue in deadline order, and when its deadline passes the records still marked are expired. Unlinking a marked
 * record clears its mark; a record that gets a deadline of its own (extended, or delayed) goes on the wheel. Runs
 * wholly below the ack floor leave the queue as the floor passes them, so the queue holds the runs in flight.
 */
public final class DeadlineTimers
{
    /** Told about each record whose deadline passed; the record is already unlinked. */
    @FunctionalInterface
    public interface ExpiryHandler
    {
        void onDeadline(int record);
    }

    static final long TICK_MILLIS = 8;
    private static final int LEVELS = 4;
    private static final int SLOT_BITS = 8;
    private static final int SLOTS = 1 << SLOT_BITS;
    private static final int SLOT_MASK = SLOTS - 1;
    /** Previous link of a list's first record: {@code FIRST_MARK - slot number}. */
    private static final int FIRST_MARK = InFlightTable.NIL - 1;
    /** Previous link of a record whose deadline is its run's, kept in {@link #runs} rather than on the wheel. */
    private static final int IN_RUN = Integer.MIN_VALUE;
    /**
     * The list a slot's records move to while they are fired: a list with a head of its own, so that a handler that
     * unlinks another record of the same tick (an ordered group's run ending with its head) takes it out of the
     * list being fired, as from any slot.
     */
    private static final int FIRING = LEVELS * SLOTS;

    private final InFlightTable records;
    private final int[] heads = new int[LEVELS * SLOTS + 1];
    /** Runs of records sharing a deadline (the run's value), in deadline order. */
    private final OffsetRuns runs = new OffsetRuns();
    private long tick;
    /** Records on the wheel. */
    private int count;
    /** Records whose deadline is their run's. */
    private int inRuns;

    public DeadlineTimers(final InFlightTable records, final long startTimeMillis)
    {
        this.records = records;
        this.tick = startTimeMillis / TICK_MILLIS;
        Arrays.fill(heads, InFlightTable.NIL);
    }

    public void schedule(final int record, final long deadline)
    {
        records.deadline(record, deadline);
        link(record, deadline / TICK_MILLIS);
        count++;
    }

    /** Whether a run with this deadline may join the queue of runs: none queued ends later. */
    public boolean takesRunUntil(final long deadline)
    {
        return runs.size() == 0 || runs.lastValue() <= deadline;
    }

    /**
     * Holds the messages at the {@code length} offsets from {@code from} on for {@code holder} until
     * {@code deadline}, as one run; only if {@link #takesRunUntil} said so.
     */
    public void holdRun(final long from, final int length, final int holder, final long deadline)
    {
        records.allocateRun(from, length, holder, deadline, IN_RUN);
        inRuns += length;
        runs.add(from, length, deadline);
    }

    /**
     * How many of the {@code max} records from {@code offset} on (up to the end of their page) are held by one
     * consumer, marked in their run and not due at {@code now}.
     */
    public int markedRunLength(final long offset, final int max, final long now)
    {
        return records.heldRunLength(offset, max, IN_RUN, now);
    }

    /**
     * {@code count} records {@link #markedRunLength} found leave their runs; the caller frees them with
     * {@link InFlightTable#freeRun}, which clears their marks.
     */
    public void unlinkMarked(final int count)
    {
        inRuns -= count;
    }

    public void unlink(final int record)
    {
        final int previous = records.previous(record);
        if (previous == IN_RUN)
        {
            records.previous(record, InFlightTable.NIL);
            inRuns--;
            return;
        }
        final int next = records.next(record);
        if (previous <= FIRST_MARK)
        {
            heads[FIRST_MARK - previous] = next;
        }
        else
        {
            records.next(previous, next);
        }
        if (next != InFlightTable.NIL)
        {
            records.previous(next, previous);
        }
        records.previous(record, InFlightTable.NIL);
        records.next(record, InFlightTable.NIL);
        count--;
    }

    /**
     * Hands every record whose deadline is at or before {@code now} to the handler; runs wholly below
     * {@code ackFloor} are dropped first, all their records being settled.
     *
     * @return the number of records expired.
     */
    public int expireDue(final long now, final long ackFloor, final ExpiryHandler handler)
    {
        runs.dropBelow(ackFloor);
        int expired = 0;
        while (runs.size() > 0 && runs.value(0) <= now)
        {
            expired += expireRun(runs.start(0), runs.length(0), handler);
            runs.removeFirst();
        }
        return expired + expireDueOnWheel(now, handler);
    }

    /** Expires the records of a run that still have its deadline: the others were settled or given their own. */
    private int expireRun(final long from, final int length, final ExpiryHandler handler)
    {
        int expired = 0;
        for (long offset = from, end = from + length; offset < end; offset++)
        {
            final int record = records.recordAt(offset);
            if (record != InFlightTable.NIL && records.previous(record) == IN_RUN)
            {
                records.previous(record, InFlightTable.NIL);
                inRuns--;
                expired++;
                handler.onDeadline(record);
            }
        }
        return expired;
    }

    private int expireDueOnWheel(final long now, final ExpiryHandler handler)
    {
        final long nowTick = now / TICK_MILLIS;
        int expired = 0;
        while (true)
        {
            if (count == 0)
            {
                tick = Math.max(tick, nowTick);
                return expired;
            }
            if ((tick & SLOT_MASK) == 0)
            {
                cascade();
            }
            expired += fireSlot((int)(tick & SLOT_MASK), now, handler);
            if (tick >= nowTick)
            {
                return expired;
            }
            tick = Math.min(nextTickWithWork(), nowTick);
        }
    }

    /** Records with a deadline on the wheel. */
    public long timerCount()
    {
        return count + inRuns;
    }

    public long footprintBytes()
    {
        return (long)heads.length * Integer.BYTES + runs.footprintBytes();
    }

    private long nextTickWithWork()
    {
        long next = tick + 1;
        for (int level = 0; level < LEVELS && isEmpty(level); level++)
        {
            final long span = 1L << (SLOT_BITS * (level + 1));
            next = (tick | (span - 1)) + 1;
        }
        return next;
    }

    /** Entering a new slot of a coarser level: its records move to the levels that now reach them. */
    private void cascade()
    {
        for (int level = LEVELS - 1; level >= 1; level--)
        {
            if ((tick & ((1L << (SLOT_BITS * level)) - 1)) == 0)
            {
                final int slot = level * SLOTS + (int)((tick >>> (SLOT_BITS * level)) & SLOT_MASK);
                int record = detach(slot);
                while (record != InFlightTable.NIL)
                {
                    final int next = records.next(record);
                    link(record, records.deadline(record) / TICK_MILLIS);
                    record = next;
                }
            }
        }
    }

    /**
     * Fires the due records of a level 0 slot; records of the same tick not yet due stay. The slot's list moves
     * whole to {@link #FIRING} and each record is taken off its head before the handler runs, so whatever the
     * handler unlinks is gone from the list before the firing reaches it.
     */
    private int fireSlot(final int slot, final long now, final ExpiryHandler handler)
    {
        final int first = detach(slot);
        if (first == InFlightTable.NIL)
        {
            return 0;
        }
        records.previous(first, FIRST_MARK - FIRING);
        heads[FIRING] = first;
        int fired = 0;
        int record;
        while ((record = heads[FIRING]) != InFlightTable.NIL)
        {
            final int next = records.next(record);
            heads[FIRING] = next;
            if (next != InFlightTable.NIL)
            {
                records.previous(next, FIRST_MARK - FIRING);
            }
            if (records.deadline(record) <= now)
            {
                records.previous(record, InFlightTable.NIL);
                records.next(record, InFlightTable.NIL);
                count--;
                fired++;
                handler.onDeadline(record);
            }
            else
            {
                push(slot, record);
            }
        }
        return fired;
    }

    /** Empties a slot and returns its first record; the records keep their next links. */
    private int detach(final int slot)
    {
        final int first = heads[slot];
        heads[slot] = InFlightTable.NIL;
        return first;
    }

    /** 256 reads, done only when the wheel moves past a tick, which is cheaper than counting on every unlink. */
    private boolean isEmpty(final int level)
    {
        for (int slot = level * SLOTS, end = slot + SLOTS; slot < end; slot++)
        {
            if (heads[slot] != InFlightTable.NIL)
            {
                return false;
            }
        }
        return true;
    }

    private void link(final int record, final long deadlineTick)
    {
        final long distance = Math.max(0, deadlineTick - tick);
        int level = 0;
        while (level < LEVELS - 1 && distance >= 1L << (SLOT_BITS * (level + 1)))
        {
            level++;
        }
        final long due = Math.max(deadlineTick, tick);
        push(level * SLOTS + (int)((due >>> (SLOT_BITS * level)) & SLOT_MASK), record);
    }

    private void push(final int slot, final int record)
    {
        final int first = heads[slot];
        records.previous(record, FIRST_MARK - slot);
        records.next(record, first);
        if (first != InFlightTable.NIL)
        {
            records.previous(first, record);
        }
        heads[slot] = record;
    }
}
