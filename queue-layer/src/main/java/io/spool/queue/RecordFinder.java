package io.spool.queue;

import io.spool.log.LogReader;
import io.spool.log.OffsetOutOfRangeException;
import io.spool.log.PartitionLog;
import io.spool.log.RecordHandler;
import io.spool.log.RecordView;

/**
 * Finds the record at an offset of one partition log, or a run of consecutive ones, through a reader of its own:
 * reading offsets in order costs a poll each, no index lookup. Not thread-safe: one per reading thread.
 */
final class RecordFinder implements AutoCloseable
{
    private final LogReader reader;
    /** The record the last {@link #find} met; kept in a field so the handler below captures nothing per call. */
    private RecordView found;
    private final RecordHandler keepFound = record -> found = record;

    RecordFinder(final PartitionLog log)
    {
        this.reader = log.newReader();
    }

    /**
     * @return a view of the record at {@code offset}, valid until the next call; null when retention removed it.
     */
    RecordView find(final long offset)
    {
        found = null;
        try
        {
            reader.seek(offset);
            reader.poll(keepFound, 1);
        }
        catch (final OffsetOutOfRangeException ex)
        {
            return null;
        }
        return found;
    }

    /**
     * Hands the {@code count} records from {@code from} on to {@code handler}, in one poll when they are all there.
     *
     * @return false when retention removed the record the reader reached: the records before it were handed over.
     */
    boolean readRun(final long from, final int count, final RecordHandler handler)
    {
        try
        {
            reader.seek(from);
            reader.poll(handler, count);
            return true;
        }
        catch (final OffsetOutOfRangeException ex)
        {
            return false;
        }
    }

    @Override
    public void close()
    {
        reader.close();
    }
}
