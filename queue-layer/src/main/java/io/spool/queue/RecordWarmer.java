package io.spool.queue;

import io.spool.log.LogReader;
import io.spool.log.OffsetOutOfRangeException;

/**
 * Reads the records just past a partition's read cursor, a step at a time, while the subscription's agent has
 * nothing else to do, so that consumers find the records they are handed next in cache rather than in memory. It
 * reads only each record's frame length: the first bytes of a record, which the consumer's read starts with. Not
 * thread-safe: owned by the subscription's agent thread.
 * <p>
 * Design note: the records a queue hands out were written long before and are read once, by consumers that also
 * settle each one, so the consumers are the ones to wait for memory unless someone read the records shortly before.
 * The read-ahead for expiry used to be that someone, in every pass and far ahead of the cursor; it now passes records
 * the log knows to be header-free without reading them, and this reads close ahead of the cursor in the agent's
 * spare time instead. The agent decides when that pays (see {@code SubscriptionAgent}).
 */
final class RecordWarmer implements AutoCloseable
{
    /** Records read per step: a step takes a few microseconds, so the agent looks for work again soon after. */
    static final int RECORDS_PER_STEP = 256;
    /**
     * How far past the cursor records are read: about 2 MB of 100-byte messages, which stays in the processor's
     * shared cache while consumers drain their prefetch, and several prefetches of 1,000 ahead of them.
     */
    static final long RECORDS_AHEAD = 16_384;

    private final LogReader reader;
    private final int recordsPerStep;
    private final long recordsAhead;
    /** Every record between the cursor and this offset was read. */
    private long warmedTo;

    RecordWarmer(final LogReader reader)
    {
        this(reader, RECORDS_PER_STEP, RECORDS_AHEAD);
    }

    RecordWarmer(final LogReader reader, final int recordsPerStep, final long recordsAhead)
    {
        this.reader = reader;
        this.recordsPerStep = recordsPerStep;
        this.recordsAhead = recordsAhead;
    }

    /**
     * Reads the next step of records past {@code cursor}, up to the records ahead it was given (by default
     * {@link #RECORDS_AHEAD}) and never past {@code logEnd}.
     *
     * @return the number of records read; 0 when the records ahead of the cursor are read already.
     */
    int warm(final long cursor, final long logEnd)
    {
        final long from = Math.max(warmedTo, cursor);
        final long limit = Math.min(logEnd, cursor + recordsAhead);
        if (from >= limit)
        {
            return 0;
        }
        try
        {
            reader.seek(from);
            final int read = reader.skip((int)Math.min(recordsPerStep, limit - from));
            warmedTo = from + read;
            return read;
        }
        catch (final OffsetOutOfRangeException ex)
        {
            // Retention removed them: there is nothing to read this far ahead of the cursor.
            warmedTo = limit;
            return 0;
        }
    }

    @Override
    public void close()
    {
        reader.close();
    }
}
