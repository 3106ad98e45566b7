package io.spool.queue.internal.delivery;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Keeps the consumer's counters off the cache line of whatever the heap holds before the hand-off. */
abstract class DeliveryHandoffPaddingBefore
{
    long p01, p02, p03, p04, p05, p06, p07, p08;
}

/** Written by the consumer thread only. */
abstract class DeliveryHandoffConsumerFields extends DeliveryHandoffPaddingBefore
{
    /** Messages the consumer took; written with release semantics. */
    volatile long takenMessages;
    /** Runs taken. */
    long takenRuns;
}

/** Keeps the agent's counters off the consumer's cache line. */
abstract class DeliveryHandoffPaddingBetween extends DeliveryHandoffConsumerFields
{
    long p11, p12, p13, p14, p15, p16, p17, p18;
}

/** Written by the agent thread only. */
abstract class DeliveryHandoffAgentFields extends DeliveryHandoffPaddingBetween
{
    /** Runs below it may be read by the consumer; written with volatile semantics. */
    volatile long publishedRuns;
    /** Messages in the published runs; written before {@link #publishedRuns}. */
    volatile long publishedMessages;
    /** Runs and messages written, those past the published ones not yet visible. */
    long stagedRuns;
    long stagedMessages;
    /** The consumer's taken count as the agent last read it: the agent reads the consumer's line only when short. */
    long takenSeen;
}

/** Keeps the agent's counters off the cache line of the hand-off's slots and whatever follows. */
abstract class DeliveryHandoffPaddingAfter extends DeliveryHandoffAgentFields
{
    long p21, p22, p23, p24, p25, p26, p27, p28;
}

/**
 * The deliveries a subscription's agent hands to one push consumer, as runs of primitives (partition, first offset,
 * count, delivery number, first delivery time) in a ring: the agent stages runs past the published end while its
 * pass runs, a delivery that continues the last staged run joining it, and publishes them with one ordered store
 * once the pass is journaled; the consumer thread takes them in order and reads each run's messages from the log
 * itself, consecutive records in one pass as a stream poll does. Nothing is allocated per delivery, and the agent
 * neither copies records nor wakes the consumer per message.
 * <p>
 * Design note: room is counted in messages, not runs. A run holds at least one message, so a ring of {@code size}
 * runs never overflows while at most {@code size} messages are staged and not taken; and the consumer counts each
 * message taken as it reaches it, so the agent sees room free up within a run.
 * <p>
 * Thread-safe for one producer (the agent thread: {@link #stage}, {@link #publish}) and one consumer (the consumer
 * thread: {@link #take}, {@link #tookOne}).
 * <p>
 * Design note: each exchange of a cache line between the two threads' cores costs the side that wants it back a
 * miss, which costs several times as much when the host places the two virtual CPUs far apart, and the queue's
 * throughput follows. So the hand-off keeps the lines
 * the two share per pass few: the consumer's counters and the agent's lie on cache lines of their own, padded apart
 * as in {@link AckRun}; a run's five fields are packed in one slot of four longs, which the consumer reads as one
 * line rather than five arrays' worth; and the ring holds twice the capacity, so the agent's last look at the
 * consumer's taken count leaves room enough for a pass as a rule, and the line the consumer writes at every message
 * stays in its own core's cache.
 */
public final class DeliveryHandoff extends DeliveryHandoffPaddingAfter
{
    private static final VarHandle PUBLISHED_RUNS;
    private static final VarHandle PUBLISHED_MESSAGES;
    private static final VarHandle TAKEN_MESSAGES;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            PUBLISHED_RUNS = lookup.findVarHandle(DeliveryHandoffAgentFields.class, "publishedRuns", long.class);
            PUBLISHED_MESSAGES =
                lookup.findVarHandle(DeliveryHandoffAgentFields.class, "publishedMessages", long.class);
            TAKEN_MESSAGES = lookup.findVarHandle(DeliveryHandoffConsumerFields.class, "takenMessages", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** Reads the run a consumer takes. */
    public interface RunHandler
    {
        void onRun(int partition, long firstOffset, int count, int deliveryNumber, long firstDeliveryTime);
    }

    /** A slot's longs: partition and delivery number packed, first offset, count, first delivery time. */
    private static final int SLOT_LONGS = 4;
    private static final int FIRST_OFFSET = 1;
    private static final int COUNT = 2;
    private static final int FIRST_DELIVERY_TIME = 3;

    private final int mask;
    private final long[] slots;

    /** A ring of runs that holds at least twice {@code capacity} deliveries. */
    public DeliveryHandoff(final int capacity)
    {
        final int size = Integer.highestOneBit(Math.max(2, capacity) * 4 - 1);
        mask = size - 1;
        slots = new long[size * SLOT_LONGS];
    }

    /**
     * Agent thread: room for up to {@code wanted} more messages, counting staged ones as not taken. Reads the
     * consumer's taken count only when the one it last read leaves less room than that.
     *
     * @return the smaller of {@code wanted} and the room.
     */
    int room(final int wanted)
    {
        final int size = mask + 1;
        if (size - (int)(stagedMessages - takenSeen) < wanted)
        {
            takenSeen = (long)TAKEN_MESSAGES.getAcquire(this);
        }
        return Math.min(wanted, size - (int)(stagedMessages - takenSeen));
    }

    /** Agent thread: messages staged or published that the consumer has not taken yet. */
    int pending()
    {
        takenSeen = (long)TAKEN_MESSAGES.getAcquire(this);
        return (int)(stagedMessages - takenSeen);
    }

    /** Agent thread: whether runs were staged since the last publish. */
    public boolean hasStaged()
    {
        return stagedRuns != (long)PUBLISHED_RUNS.getOpaque(this);
    }

    /**
     * Agent thread: writes {@code count} deliveries from {@code firstOffset} on past the published end, joining the
     * last staged run if they continue it; only while {@link #remaining()} is at least {@code count}.
     */
    void stage(final int partition, final long firstOffset, final int count, final int deliveryNumber,
        final long firstDeliveryTime)
    {
        final long partitionAndNumber = (long)partition << 32 | deliveryNumber & 0xFFFF_FFFFL;
        final int last = ((int)(stagedRuns - 1) & mask) * SLOT_LONGS;
        if (hasStaged() && slots[last] == partitionAndNumber &&
            slots[last + FIRST_OFFSET] + slots[last + COUNT] == firstOffset &&
            slots[last + FIRST_DELIVERY_TIME] == firstDeliveryTime)
        {
            slots[last + COUNT] += count;
        }
        else
        {
            final int slot = ((int)stagedRuns & mask) * SLOT_LONGS;
            slots[slot] = partitionAndNumber;
            slots[slot + FIRST_OFFSET] = firstOffset;
            slots[slot + COUNT] = count;
            slots[slot + FIRST_DELIVERY_TIME] = firstDeliveryTime;
            stagedRuns++;
        }
        stagedMessages += count;
    }

    /**
     * Agent thread: makes every staged run visible to the consumer. The run count is a volatile store, not just a
     * release: the agent reads the consumer's idle flag next, and must not read it before the consumer can see the
     * runs, or a consumer going to sleep would miss them.
     */
    public void publish()
    {
        PUBLISHED_MESSAGES.setRelease(this, stagedMessages);
        PUBLISHED_RUNS.setVolatile(this, stagedRuns);
    }

    /** Consumer side: published messages not taken yet. */
    public int available()
    {
        return (int)((long)PUBLISHED_MESSAGES.getAcquire(this) - (long)TAKEN_MESSAGES.getOpaque(this));
    }

    /** Consumer thread: whether no published run waits. */
    public boolean isEmpty()
    {
        return takenRuns == (long)PUBLISHED_RUNS.getAcquire(this);
    }

    /**
     * Consumer thread: takes the next published run and hands it to {@code handler}, which calls {@link #tookOne()}
     * as it reaches each of the run's messages.
     *
     * @return false if none was published.
     */
    public boolean take(final RunHandler handler)
    {
        if (isEmpty())
        {
            return false;
        }
        final int slot = ((int)takenRuns & mask) * SLOT_LONGS;
        final long partitionAndNumber = slots[slot];
        takenRuns++;
        handler.onRun((int)(partitionAndNumber >>> 32), slots[slot + FIRST_OFFSET], (int)slots[slot + COUNT],
            (int)partitionAndNumber, slots[slot + FIRST_DELIVERY_TIME]);
        return true;
    }

    /** Consumer thread: one more message of the run being taken no longer counts as pending. */
    public void tookOne()
    {
        TAKEN_MESSAGES.setRelease(this, (long)TAKEN_MESSAGES.getOpaque(this) + 1);
    }
}
