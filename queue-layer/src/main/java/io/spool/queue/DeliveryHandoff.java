package io.spool.queue;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The deliveries a subscription's agent hands to one push consumer, as slots of primitives (partition, offset,
 * delivery number, first delivery time) in a ring: the agent stages slots past the published end while its pass runs
 * and publishes them with one ordered store once the pass is journaled; the consumer thread takes them in order and
 * reads each message from the log itself. Nothing is allocated per delivery, and the agent neither copies records
 * nor wakes the consumer per message.
 * <p>
 * Thread-safe for one producer (the agent thread: {@link #stage}, {@link #publish}) and one consumer (the consumer
 * thread: {@link #take}).
 */
final class DeliveryHandoff
{
    private static final VarHandle PUBLISHED;
    private static final VarHandle TAKEN;

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            PUBLISHED = lookup.findVarHandle(DeliveryHandoff.class, "published", long.class);
            TAKEN = lookup.findVarHandle(DeliveryHandoff.class, "taken", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** Reads the slot a consumer takes. */
    interface SlotHandler
    {
        void onSlot(int partition, long offset, int deliveryNumber, long firstDeliveryTime);
    }

    private final int mask;
    private final int[] partitions;
    private final long[] offsets;
    private final int[] deliveryNumbers;
    private final long[] firstDeliveryTimes;
    /** Slots below it may be read by the consumer; written by the agent with release semantics. */
    private volatile long published;
    /** Slots below it were taken by the consumer; written by the consumer with release semantics. */
    private volatile long taken;
    /** Owned by the agent: slots below it are written, those from {@link #published} on not yet visible. */
    private long staged;

    /** A ring that holds at least {@code capacity} deliveries. */
    DeliveryHandoff(final int capacity)
    {
        final int size = Integer.highestOneBit(Math.max(2, capacity) * 2 - 1);
        mask = size - 1;
        partitions = new int[size];
        offsets = new long[size];
        deliveryNumbers = new int[size];
        firstDeliveryTimes = new long[size];
    }

    /** Agent thread: free slots, counting staged ones as taken. */
    int remaining()
    {
        return mask + 1 - (int)(staged - (long)TAKEN.getAcquire(this));
    }

    /** Agent thread: deliveries staged or published that the consumer has not taken yet. */
    int pending()
    {
        return (int)(staged - (long)TAKEN.getAcquire(this));
    }

    /** Agent thread: whether slots were staged since the last publish. */
    boolean hasStaged()
    {
        return staged != (long)PUBLISHED.getOpaque(this);
    }

    /** Agent thread: writes a slot past the published end; only when {@link #remaining()} is above zero. */
    void stage(final int partition, final long offset, final int deliveryNumber, final long firstDeliveryTime)
    {
        final int slot = (int)staged & mask;
        partitions[slot] = partition;
        offsets[slot] = offset;
        deliveryNumbers[slot] = deliveryNumber;
        firstDeliveryTimes[slot] = firstDeliveryTime;
        staged++;
    }

    /**
     * Agent thread: makes every staged slot visible to the consumer. A volatile store, not just a release: the agent
     * reads the consumer's idle flag next, and must not read it before the consumer can see the slots, or a consumer
     * going to sleep would miss them.
     */
    void publish()
    {
        PUBLISHED.setVolatile(this, staged);
    }

    /** Consumer side: published slots not taken yet. */
    int available()
    {
        return (int)((long)PUBLISHED.getAcquire(this) - (long)TAKEN.getOpaque(this));
    }

    /** Consumer thread: whether a published slot waits. */
    boolean isEmpty()
    {
        return (long)TAKEN.getOpaque(this) == (long)PUBLISHED.getAcquire(this);
    }

    /**
     * Consumer thread: takes the next published slot (it no longer counts as pending) and hands it to
     * {@code handler}.
     *
     * @return false if none was published.
     */
    boolean take(final SlotHandler handler)
    {
        final long next = (long)TAKEN.getOpaque(this);
        if (next == (long)PUBLISHED.getAcquire(this))
        {
            return false;
        }
        final int slot = (int)next & mask;
        final int partition = partitions[slot];
        final long offset = offsets[slot];
        final int deliveryNumber = deliveryNumbers[slot];
        final long firstDeliveryTime = firstDeliveryTimes[slot];
        TAKEN.setRelease(this, next + 1);
        handler.onSlot(partition, offset, deliveryNumber, firstDeliveryTime);
        return true;
    }
}
