package io.spool.queue;

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
}

/** Keeps the agent's counters off the cache line of the hand-off's arrays and whatever follows. */
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
 * Design note: room and credit are counted in messages, not runs. A run holds at least one message, so a ring of
 * {@code size} runs never overflows while at most {@code size} messages are staged and not taken; and the consumer
 * counts each message taken as it reaches it, so the agent sees credit and room free up within a run.
 * <p>
 * Thread-safe for one producer (the agent thread: {@link #stage}, {@link #publish}) and one consumer (the consumer
 * thread: {@link #take}, {@link #tookOne}).
 * <p>
 * Design note: the consumer's counters and the agent's lie on cache lines of their own, padded apart, as in
 * {@link AckRun}: the consumer counts every message it takes, and the agent writes its counters at every pass.
 */
final class DeliveryHandoff extends DeliveryHandoffPaddingAfter
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
    interface RunHandler
    {
        void onRun(int partition, long firstOffset, int count, int deliveryNumber, long firstDeliveryTime);
    }

    private final int mask;
    private final int[] partitions;
    private final long[] firstOffsets;
    private final int[] counts;
    private final int[] deliveryNumbers;
    private final long[] firstDeliveryTimes;

    /** A ring that holds at least {@code capacity} deliveries. */
    DeliveryHandoff(final int capacity)
    {
        final int size = Integer.highestOneBit(Math.max(2, capacity) * 2 - 1);
        mask = size - 1;
        partitions = new int[size];
        firstOffsets = new long[size];
        counts = new int[size];
        deliveryNumbers = new int[size];
        firstDeliveryTimes = new long[size];
    }

    /** Agent thread: room for this many more messages, counting staged ones as taken. */
    int remaining()
    {
        return mask + 1 - pending();
    }

    /** Agent thread: messages staged or published that the consumer has not taken yet. */
    int pending()
    {
        return (int)(stagedMessages - (long)TAKEN_MESSAGES.getAcquire(this));
    }

    /** Agent thread: whether runs were staged since the last publish. */
    boolean hasStaged()
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
        final int last = (int)(stagedRuns - 1) & mask;
        if (hasStaged() && partitions[last] == partition && firstOffsets[last] + counts[last] == firstOffset &&
            deliveryNumbers[last] == deliveryNumber && firstDeliveryTimes[last] == firstDeliveryTime)
        {
            counts[last] += count;
        }
        else
        {
            final int slot = (int)stagedRuns & mask;
            partitions[slot] = partition;
            firstOffsets[slot] = firstOffset;
            counts[slot] = count;
            deliveryNumbers[slot] = deliveryNumber;
            firstDeliveryTimes[slot] = firstDeliveryTime;
            stagedRuns++;
        }
        stagedMessages += count;
    }

    /**
     * Agent thread: makes every staged run visible to the consumer. The run count is a volatile store, not just a
     * release: the agent reads the consumer's idle flag next, and must not read it before the consumer can see the
     * runs, or a consumer going to sleep would miss them.
     */
    void publish()
    {
        PUBLISHED_MESSAGES.setRelease(this, stagedMessages);
        PUBLISHED_RUNS.setVolatile(this, stagedRuns);
    }

    /** Consumer side: published messages not taken yet. */
    int available()
    {
        return (int)((long)PUBLISHED_MESSAGES.getAcquire(this) - (long)TAKEN_MESSAGES.getOpaque(this));
    }

    /** Consumer thread: whether no published run waits. */
    boolean isEmpty()
    {
        return takenRuns == (long)PUBLISHED_RUNS.getAcquire(this);
    }

    /**
     * Consumer thread: takes the next published run and hands it to {@code handler}, which calls {@link #tookOne()}
     * as it reaches each of the run's messages.
     *
     * @return false if none was published.
     */
    boolean take(final RunHandler handler)
    {
        if (isEmpty())
        {
            return false;
        }
        final int slot = (int)takenRuns & mask;
        final int partition = partitions[slot];
        final long firstOffset = firstOffsets[slot];
        final int count = counts[slot];
        final int deliveryNumber = deliveryNumbers[slot];
        final long firstDeliveryTime = firstDeliveryTimes[slot];
        takenRuns++;
        handler.onRun(partition, firstOffset, count, deliveryNumber, firstDeliveryTime);
        return true;
    }

    /** Consumer thread: one more message of the run being taken no longer counts as pending. */
    void tookOne()
    {
        TAKEN_MESSAGES.setRelease(this, (long)TAKEN_MESSAGES.getOpaque(this) + 1);
    }
}
