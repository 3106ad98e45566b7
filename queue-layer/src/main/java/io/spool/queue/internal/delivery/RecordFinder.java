package io.spool.queue.internal.delivery;

import io.spool.api.log.OffsetOutOfRangeException;
import io.spool.api.log.RecordView;
import io.spool.log.LogReader;
import io.spool.log.PartitionLog;

/**
 * Finds the record at an offset of one partition log through a reader of its own: offsets read in order cost no
 * seek and, within a segment, no look at the log. Not thread-safe: one per reading thread.
 */
public final class RecordFinder implements AutoCloseable
{
    private final LogReader reader;

    public RecordFinder(final PartitionLog log)
    {
        this.reader = log.newReader();
    }

    /**
     * @return a view of the record at {@code offset}, valid until the next call; null when retention removed it or
     *         it lies in a hole of the log (damage recovery found), where the reader moves on to a later record.
     */
    public RecordView find(final long offset)
    {
        try
        {
            if (reader.nextOffset() != offset)
            {
                reader.seek(offset);
            }
            final RecordView record = reader.next();
            return record == null || record.offset() == offset ? record : null;
        }
        catch (final OffsetOutOfRangeException ex)
        {
            return null;
        }
    }

    @Override
    public void close()
    {
        reader.close();
    }
}
