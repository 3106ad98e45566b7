package io.spool.perf.bench;

import io.spool.api.log.RecordView;
import io.spool.log.LogReader;
import io.spool.log.PartitionLog;
import io.spool.log.RecordHandler;
import org.HdrHistogram.AtomicHistogram;

/**
 * Reads every committed record of a set of logs from their start, one log after the other, through zero-copy
 * {@link LogReader} polls; the handler touches each record's offset, value length and last value byte, as the raw
 * scan does. One clock read per poll. Not thread-safe: one reading thread.
 */
public final class ReplayLoop implements Replay, RecordHandler
{
    private final PartitionLog[] logs;
    private final LogReader[] readers;
    private final int maxRecordsPerPoll;
    /** Stored, never read: a heap store keeps the JIT from dropping the loads the handler exists to make. */
    private long checksum;

    public ReplayLoop(final PartitionLog[] logs, final int maxRecordsPerPoll)
    {
        this.logs = logs;
        this.readers = new LogReader[logs.length];
        for (int i = 0; i < logs.length; i++)
        {
            readers[i] = logs[i].newReader();
        }
        this.maxRecordsPerPoll = maxRecordsPerPoll;
    }

    @Override
    public long replayAll(final AtomicHistogram pollNanos)
    {
        long records = 0;
        for (int i = 0; i < logs.length; i++)
        {
            final LogReader reader = readers[i];
            final long end = logs[i].endOffset();
            reader.seek(logs[i].startOffset());
            long before = System.nanoTime();
            while (reader.nextOffset() < end)
            {
                final int read = reader.poll(this, maxRecordsPerPoll);
                final long now = System.nanoTime();
                if (read == 0)
                {
                    throw new IllegalStateException(logs[i].name() + ": no record at offset " + reader.nextOffset() +
                        " below the end offset " + end);
                }
                LatencyHistograms.record(pollNanos, now - before);
                records += read;
                before = now;
            }
        }
        return records;
    }

    @Override
    public void onRecord(final RecordView record)
    {
        checksum += touch(record);
    }

    /** What every replay reads of a record, as the raw scan does: its offset, value length and last value byte. */
    static long touch(final RecordView record)
    {
        return record.offset() + record.valueLength() +
            record.buffer().getByte(record.valueOffset() + record.valueLength() - 1);
    }

    @Override
    public void close()
    {
        for (final LogReader reader : readers)
        {
            reader.close();
        }
    }
}
