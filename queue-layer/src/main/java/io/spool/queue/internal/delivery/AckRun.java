package io.spool.queue.internal.delivery;

import io.spool.queue.Subscription;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** Keeps the consumer's fields off the cache line of whatever the heap holds before the run. */
abstract class AckRunPaddingBefore
{
    long p01, p02, p03, p04, p05, p06, p07, p08;
}

/** Written by the consumer thread only. */
abstract class AckRunWriterFields extends AckRunPaddingBefore
{
    /** The run's number in the high half, its count of acks in the low half. */
    volatile long published;
    boolean writing;
    int number;
    int partition;
    int deliveryNumber;
    long from;
    int count;
}

/** Keeps the agent's fields off the consumer's cache line. */
abstract class AckRunPaddingBetween extends AckRunWriterFields
{
    long p11, p12, p13, p14, p15, p16, p17, p18;
}

/** Written by the agent thread only. */
abstract class AckRunReaderFields extends AckRunPaddingBetween
{
    boolean reading;
    int readNumber;
    int readPartition;
    int readDeliveryNumber;
    long readFrom;
    int settled;
}

/** Keeps the agent's fields off the cache line of whatever the heap holds after the run. */
abstract class AckRunPaddingAfter extends AckRunReaderFields
{
    long p21, p22, p23, p24, p25, p26, p27, p28;
}

/**
 * The run of in-order acks a push consumer's own thread is making (one partition, one delivery number, consecutive
 * offsets), as its agent sees it. The consumer announces a run once, with an entry in its settlement ring that
 * carries the run's first ack, and each further ack only raises the run's published count with one ordered store;
 * the agent settles whatever the count grew by since it last looked, in one pass per structure. A run ends with a
 * ring entry that carries its final count, before anything else the consumer thread settles, so settlements keep
 * their order.
 * <p>
 * Design note: the count is published together with the run's number, so the agent never applies one run's count
 * to another; a number newer than the agent knows means the run ended and its end entry is in the ring, which the
 * agent then reads again (what {@link Subscription#sync()} promises rests on that).
 * <p>
 * Thread-safe for one writer (the consumer thread: {@link #extend}, {@link #open}, {@link #publish}, {@link #end})
 * and one reader (the agent thread: {@link #onOpened}, {@link #onEnded}, {@link #poll}, {@link #unsettled}).
 * <p>
 * Design note: the consumer's fields and the agent's lie on cache lines of their own, padded apart. The consumer
 * reads its fields at every ack, and the agent writes its own at every pass: on a shared line, each pass cost the
 * consumer's next ack a miss to the other core's cache.
 */
public final class AckRun extends AckRunPaddingAfter
{
    /** Ring message type of a run's first ack, laid out as {@link SettlementEntry} with the run number as argument. */
    public static final int OPENED = 64;
    /** Ring message type of a run's end: run number, final count. */
    public static final int ENDED = 65;
    /** Length of an {@link #ENDED} entry: the run's number and count packed in a long. */
    public static final int ENDED_LENGTH = 8;
    /** A run is ended and another begun past this many acks, so a count always fits the low half of a long. */
    static final int MAX_COUNT = 1 << 30;

    private static final VarHandle PUBLISHED;

    static
    {
        try
        {
            PUBLISHED = MethodHandles.lookup().findVarHandle(AckRunWriterFields.class, "published", long.class);
        }
        catch (final ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    /** Settles the acks of a run from {@code from} on, {@code count} offsets, all of {@code deliveryNumber}. */
    @FunctionalInterface
    interface RangeHandler
    {
        void onAcks(int partition, long from, int count, int deliveryNumber);
    }

    /** Consumer thread: adds the ack to the open run if it continues it; false if a new run is needed. */
    public boolean extend(final int ackPartition, final long offset, final int ackDeliveryNumber)
    {
        if (!writing || ackPartition != partition || ackDeliveryNumber != deliveryNumber || offset != from + count ||
            count == MAX_COUNT)
        {
            return false;
        }
        count++;
        PUBLISHED.setRelease(this, pack(number, count));
        return true;
    }

    /**
     * Consumer thread: starts a run with this ack, the open one having ended; the caller writes the run's
     * {@link #OPENED} entry with the number returned, commits it, and then calls {@link #publish()}.
     */
    public int open(final int ackPartition, final long offset, final int ackDeliveryNumber)
    {
        partition = ackPartition;
        deliveryNumber = ackDeliveryNumber;
        from = offset;
        count = 1;
        writing = true;
        return ++number;
    }

    /** Consumer thread: the agent may read the new run's count, its {@link #OPENED} entry being in the ring. */
    public void publish()
    {
        PUBLISHED.setRelease(this, pack(number, count));
    }

    /** Consumer thread: whether a run is open, so it must end before the thread settles anything else. */
    public boolean isOpen()
    {
        return writing;
    }

    /** Consumer thread: closes the run; returns its number and final count, for its {@link #ENDED} entry. */
    public long end()
    {
        writing = false;
        return pack(number, count);
    }

    /** Agent thread: a run began with one ack; it is settled now. */
    void onOpened(final int runNumber, final int ackPartition, final long offset, final int ackDeliveryNumber,
        final RangeHandler handler)
    {
        reading = true;
        readNumber = runNumber;
        readPartition = ackPartition;
        readDeliveryNumber = ackDeliveryNumber;
        readFrom = offset;
        settled = 0;
        settleTo(1, handler);
    }

    /** Agent thread: a run ended at the count its end entry carries. */
    void onEnded(final long numberAndCount, final RangeHandler handler)
    {
        if (reading && numberOf(numberAndCount) == readNumber)
        {
            settleTo(countOf(numberAndCount), handler);
        }
        reading = false;
    }

    /**
     * Agent thread: settles the acks the open run gained since the last look.
     *
     * @return -1 if the consumer has moved on to a run whose entries the agent has not read yet (its end entry is
     * in the ring), else the number of acks settled.
     */
    int poll(final RangeHandler handler)
    {
        if (!reading)
        {
            return 0;
        }
        final long current = (long)PUBLISHED.getAcquire(this);
        final int runNumber = numberOf(current);
        if (runNumber != readNumber)
        {
            return runNumber - readNumber > 0 ? -1 : 0;
        }
        final int before = settled;
        settleTo(countOf(current), handler);
        return settled - before;
    }

    /** Agent thread: whether the open run has acks the agent has not settled. */
    boolean unsettled()
    {
        if (!reading)
        {
            return false;
        }
        final long current = (long)PUBLISHED.getAcquire(this);
        final int ahead = numberOf(current) - readNumber;
        return ahead > 0 || ahead == 0 && countOf(current) > settled;
    }

    private void settleTo(final int count, final RangeHandler handler)
    {
        if (count > settled)
        {
            handler.onAcks(readPartition, readFrom + settled, count - settled, readDeliveryNumber);
            settled = count;
        }
    }

    private static long pack(final int number, final int count)
    {
        return (long)number << 32 | count;
    }

    private static int numberOf(final long numberAndCount)
    {
        return (int)(numberAndCount >>> 32);
    }

    private static int countOf(final long numberAndCount)
    {
        return (int)numberAndCount;
    }
}
