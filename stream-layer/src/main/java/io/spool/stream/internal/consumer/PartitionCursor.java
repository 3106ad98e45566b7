package io.spool.stream.internal.consumer;

import io.spool.api.log.OffsetOutOfRangeException;
import io.spool.api.stream.TopicPartition;
import io.spool.api.stream.UnknownTopicException;
import io.spool.log.LogReader;
import io.spool.log.PartitionLog;
import io.spool.log.RecordHandler;

/**
 * A consumer's position in one assigned partition and the reader behind it. The position is {@link #UNSET}
 * until a seek, a committed offset or the reset policy gives it one. Not thread-safe: owned by one consumer.
 */
public final class PartitionCursor
{
    public static final long UNSET = -1;

    public final TopicPartition partition;
    public final PartitionLog log;
    private final LogReader reader;
    private long position = UNSET;
    private long lastCommitted = UNSET;
    private boolean readerAtPosition;
    private int polledBytes;

    PartitionCursor(final TopicPartition partition, final PartitionLog log)
    {
        this.partition = partition;
        this.log = log;
        this.reader = log.newReader();
    }

    public long position()
    {
        return position;
    }

    public boolean hasPosition()
    {
        return position != UNSET;
    }

    /**
     * @throws OffsetOutOfRangeException when {@code offset} is below the log start or above its end
     */
    public void seek(final long offset)
    {
        checkInRange(offset);
        position = offset;
        readerAtPosition = false;
    }

    /** True when a record at the position is committed and could be read now. */
    boolean hasDataAvailable()
    {
        return position != UNSET && position < log.endOffset();
    }

    /**
     * Reads from the position on and moves past what was read.
     *
     * @throws OffsetOutOfRangeException when retention removed the records at the position, with the earliest
     *                                   offset left, so the caller can seek there
     * @throws UnknownTopicException     when the topic was deleted
     */
    public int poll(final RecordHandler handler, final int maxRecords, final int maxBytes)
    {
        polledBytes = 0;
        if (log.isClosed())
        {
            throw new UnknownTopicException("topic \"" + partition.topic() + "\" was deleted while " + partition +
                " was being read");
        }
        if (position == log.endOffset())
        {
            return 0;
        }
        checkInRange(position);
        if (!readerAtPosition)
        {
            reader.seek(position);
            readerAtPosition = true;
        }
        try
        {
            return reader.poll(handler, maxRecords, maxBytes);
        }
        catch (final OffsetOutOfRangeException ex)
        {
            readerAtPosition = false;
            throw new OffsetOutOfRangeException(partition.toString(), position, ex.earliestOffset(), ex.endOffset());
        }
        finally
        {
            if (readerAtPosition)
            {
                // also after a handler threw: the records it finished are behind the reader, the failed one is not
                position = reader.nextOffset();
                polledBytes = reader.lastPollBytes();
            }
        }
    }

    /** The frame bytes of the records the last {@link #poll} handed over. */
    public int polledBytes()
    {
        return polledBytes;
    }

    /** The position to commit, or {@link #UNSET} when it has not moved since the last commit. */
    public long positionToCommit()
    {
        return position != lastCommitted ? position : UNSET;
    }

    public void committed(final long offset)
    {
        lastCommitted = offset;
    }

    void close()
    {
        reader.close();
    }

    private void checkInRange(final long offset)
    {
        final long start = log.startOffset();
        final long end = log.endOffset();
        if (offset < start || offset > end)
        {
            throw new OffsetOutOfRangeException(partition.toString(), offset, start, end);
        }
    }
}
