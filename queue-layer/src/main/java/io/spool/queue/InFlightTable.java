package io.spool.queue;

import java.util.Arrays;

/**
 * The held messages of one subscription partition (acquired or delayed), as a pool of records in parallel primitive
 * arrays: 24 bytes per record. Records are recycled through a free list, so steady-state work allocates nothing.
 * Not thread-safe: owned by the subscription partition's thread.
 * <p>
 * Design note: a record keeps only the low 32 bits of its offset. The window never spans 2^30 offsets, so the full
 * offset is the ack floor plus the unsigned distance of the low bits from the floor's low bits, and growing the
 * window never has to rewrite records.
 */
final class InFlightTable
{
    static final int NIL = -1;
    /** Consumer value of a record that is delayed rather than held by a consumer. */
    static final int DELAYED = -2;
    private static final int FREE = -3;
    private static final int INITIAL_CAPACITY = 256;
    static final int BYTES_PER_RECORD = 4 * Integer.BYTES + Long.BYTES;

    private int[] offsetLow = new int[INITIAL_CAPACITY];
    private int[] consumer = new int[INITIAL_CAPACITY];
    private long[] deadline = new long[INITIAL_CAPACITY];
    private int[] previous = new int[INITIAL_CAPACITY];
    private int[] next = new int[INITIAL_CAPACITY];
    private int freeHead = NIL;
    private int highWater;
    private int size;

    int allocate(final long offset, final int consumerId)
    {
        final int record;
        if (freeHead != NIL)
        {
            record = freeHead;
            freeHead = next[record];
        }
        else
        {
            if (highWater == consumer.length)
            {
                grow();
            }
            record = highWater++;
        }
        offsetLow[record] = (int)offset;
        consumer[record] = consumerId;
        previous[record] = NIL;
        next[record] = NIL;
        size++;
        return record;
    }

    void free(final int record)
    {
        consumer[record] = FREE;
        next[record] = freeHead;
        freeHead = record;
        size--;
    }

    int size()
    {
        return size;
    }

    /** Records are numbered below this; scanning up to it visits every live record. */
    int highWater()
    {
        return highWater;
    }

    long offset(final int record, final long floor)
    {
        return floor + Integer.toUnsignedLong(offsetLow[record] - (int)floor);
    }

    int consumer(final int record)
    {
        return consumer[record];
    }

    void consumer(final int record, final int consumerId)
    {
        consumer[record] = consumerId;
    }

    long deadline(final int record)
    {
        return deadline[record];
    }

    void deadline(final int record, final long deadlineMillis)
    {
        deadline[record] = deadlineMillis;
    }

    int previous(final int record)
    {
        return previous[record];
    }

    void previous(final int record, final int previousRecord)
    {
        previous[record] = previousRecord;
    }

    int next(final int record)
    {
        return next[record];
    }

    void next(final int record, final int nextRecord)
    {
        next[record] = nextRecord;
    }

    long footprintBytes()
    {
        return (long)consumer.length * BYTES_PER_RECORD;
    }

    private void grow()
    {
        final int capacity = consumer.length + (consumer.length >> 1);
        offsetLow = Arrays.copyOf(offsetLow, capacity);
        consumer = Arrays.copyOf(consumer, capacity);
        deadline = Arrays.copyOf(deadline, capacity);
        previous = Arrays.copyOf(previous, capacity);
        next = Arrays.copyOf(next, capacity);
    }
}
