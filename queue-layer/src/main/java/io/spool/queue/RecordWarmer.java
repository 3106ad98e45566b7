package io.spool.queue;

import io.spool.log.LogReader;
import io.spool.log.OffsetOutOfRangeException;

/**
 * Reads the records just past a partition's read cursor, a step at a time, while the subscription's agent has
 * nothing else to do, so that consumers find the records they are handed next in cache rather than in memory. It
 * reads only each record's frame length: the first bytes of a record, which the consumer's read starts with. Not
 * thread-safe: owned by the subscription's agent thread.
 * <p>
 * Design note: the records a queue hands out were written long before and are read once, by a consumer that also
 * settles each one, so the consumer is the one to wait for memory unless someone read them shortly before. The
 * agent reads them only in its spare time: the read-ahead for expiry, which runs in every pass, used to read every
 * record far ahead of the cursor, and on the queue bench (two cores, prefetch 1,000) that cost one consumer more
 * than it gained, while four consumers gained. Reading close ahead in idle time instead took one consumer from about
 * 0.45 to 0.55 of the stream poll and four from about 0.7 to 0.8 and above (see the README's queue figures).
 */
final class RecordWarmer implements AutoCloseable
{
    /** Records read per step: a few microseconds, so a consumer waiting on the same CPU is not held up for long. */
    static final int RECORDS_PER_STEP = 256;
    /**
     * How far past the cursor records are read: about 2 MB of 100-byte messages, which stays in a core's cache
     * while a consumer drains its prefetch, and is a long way ahead of a consumer taking 1,000 at a time.
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
