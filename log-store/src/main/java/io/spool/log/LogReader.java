package io.spool.log;

import io.spool.api.EngineClosedException;
import io.spool.api.log.OffsetOutOfRangeException;
import io.spool.api.log.RecordView;
import io.spool.log.internal.segment.OffsetIndex;
import io.spool.log.internal.segment.Segment;
import io.spool.log.internal.segment.SegmentDescriptor;
import org.agrona.concurrent.UnsafeBuffer;

import static io.spool.api.log.RecordDescriptor.FRAME_LENGTH_OFFSET;
import static io.spool.api.log.RecordDescriptor.HEADERS_LENGTH_OFFSET;
import static io.spool.api.log.RecordDescriptor.OFFSET_OFFSET;
import static io.spool.api.log.RecordDescriptor.align;

/**
 * A cursor over one log that hands out records as zero-copy {@link RecordView}s, never past the committed end.
 * It holds a reference to the segment it is in, so that segment stays mapped while it reads; {@link #close()}
 * releases it. Not thread-safe: one reader per consuming thread; any number of readers per log.
 */
public final class LogReader implements AutoCloseable
{
    private final PartitionLog log;
    private final RecordView view = new RecordView();
    private Segment segment;
    private UnsafeBuffer buffer;
    private int position;
    private boolean positioned;
    /**
     * {@link #next} reads records below this offset without looking at the log: the committed end, or the end of the
     * current segment, as the last look found them. Reset whenever the cursor's place in the segment is given up.
     */
    private long readableEnd;
    private long nextOffset;
    private int lastPollBytes;

    LogReader(final PartitionLog log)
    {
        this.log = log;
        this.nextOffset = log.startOffset();
    }

    /** The offset of the next record {@link #poll} returns. */
    public long nextOffset()
    {
        return nextOffset;
    }

    /**
     * Moves to {@code offset}; the end offset is allowed and waits for the next record. Seeking to where the
     * reader already is costs nothing, so sequential random-access readers stay cheap.
     *
     * @throws OffsetOutOfRangeException when the offset is below the log start or above its end.
     * @throws EngineClosedException when the store closed the log.
     */
    public void seek(final long offset)
    {
        checkOpen();
        final long start = log.startOffset();
        final long end = log.endOffset();
        if (offset < start || offset > end)
        {
            throw new OffsetOutOfRangeException(log.name(), offset, start, end);
        }
        if (offset != nextOffset)
        {
            nextOffset = offset;
            unposition();
            leaveSegmentUnlessAt(offset);
        }
    }

    /**
     * The frame bytes (aligned, headers included) of the records the last {@link #poll} handed over, so a caller
     * spreading a byte budget over several readers need not add them up record by record; 0 after a pass of another
     * kind looked at the log.
     */
    public int lastPollBytes()
    {
        return lastPollBytes;
    }

    public int poll(final RecordHandler handler, final int maxRecords)
    {
        return poll(handler, maxRecords, Integer.MAX_VALUE);
    }

    /**
     * Hands up to {@code maxRecords} committed records, and about {@code maxBytes} of frames (at least one record
     * however large), to {@code handler}.
     *
     * @return the number of records handed over; 0 when none is committed past the cursor.
     * @throws OffsetOutOfRangeException when retention removed the records at the cursor.
     * @throws EngineClosedException when the store closed the log.
     */
    public int poll(final RecordHandler handler, final int maxRecords, final int maxBytes)
    {
        long stop = passStop(maxRecords);
        int count = 0;
        long bytes = 0;
        int at = position;
        long next = nextOffset;
        try
        {
            // The segment switch stays out of the record loop: with it inside, the JIT reloaded the handler's and
            // the view's fields for every record.
            reading:
            while (next < stop)
            {
                position = at;
                final long from = goOnFrom(next);
                if (from != next)
                {
                    next = from;
                    stop = Math.min(log.endOffset(), next + (maxRecords - count));
                }
                final long segmentStop = Math.min(stop, endOfCurrentSegment());
                at = position;
                final UnsafeBuffer buffer = this.buffer;
                final RecordView view = this.view.over(buffer);
                while (next < segmentStop)
                {
                    final int frameLength = buffer.getInt(at + FRAME_LENGTH_OFFSET);
                    final int aligned = align(frameLength);
                    if (count > 0 && bytes + aligned > maxBytes)
                    {
                        break reading;
                    }
                    handler.onRecord(view.moveTo(at, frameLength));
                    bytes += aligned;
                    at += aligned;
                    next++;
                    count++;
                }
            }
        }
        finally
        {
            position = at;
            nextOffset = next;
            lastPollBytes = (int)bytes;
        }
        return count;
    }

    /**
     * Returns a view of the record at the cursor and moves past it; null when no record is committed there. The view
     * is valid until the reader moves again. For a caller that reads records one by one in a loop of its own: unlike
     * {@link #poll}, which calls a handler per record from a loop that every kind of reader shares (a call the JIT
     * cannot inline into the caller once that loop is compiled on its own), this is small enough to be inlined.
     *
     * @throws OffsetOutOfRangeException when retention removed the record at the cursor.
     */
    public RecordView next()
    {
        long next = nextOffset;
        if (next >= readableEnd)
        {
            readableEnd = readableEndFrom();
            next = nextOffset;
            if (next >= readableEnd)
            {
                return null;
            }
        }
        final int at = position;
        final int frameLength = buffer.getInt(at + FRAME_LENGTH_OFFSET);
        position = at + align(frameLength);
        nextOffset = next + 1;
        return view.moveTo(at, frameLength);
    }

    /**
     * How far {@link #next} may read from the cursor on without looking again: to the committed end or the end of
     * the segment holding the cursor, which it enters if need be (moving the cursor past a hole it lies in); the
     * cursor itself when nothing is committed.
     */
    private long readableEndFrom()
    {
        final long end = passStop(Integer.MAX_VALUE);
        if (end <= nextOffset)
        {
            return nextOffset;
        }
        nextOffset = goOnFrom(nextOffset);
        view.over(buffer);
        return Math.min(end, endOfCurrentSegment());
    }

    /**
     * Moves past up to {@code maxRecords} committed records that carry no headers, stopping before the first that
     * does: for a caller that needs to know no more of such a record (a queue's read-ahead takes it as plain). Records
     * the log knows to be header-free ({@link PartitionLog#headerFreeFrom()}) are passed without reading them; of any
     * other, only the frame and headers lengths are read.
     *
     * @return the number of records passed; 0 when the next record carries headers or none is committed.
     * @throws OffsetOutOfRangeException when retention removed the records at the cursor.
     */
    public int skipHeaderFree(final int maxRecords)
    {
        checkOpen();
        final long end = log.endOffset();
        if (maxRecords > 0 && nextOffset < end && nextOffset >= log.headerFreeFrom())
        {
            final long start = log.startOffset();
            if (nextOffset < start)
            {
                throw new OffsetOutOfRangeException(log.name(), nextOffset, start, end);
            }
            final int passed = (int)Math.min(maxRecords, end - nextOffset);
            nextOffset += passed;
            unposition();
            leaveSegmentUnlessAt(nextOffset);
            lastPollBytes = 0;
            return passed;
        }
        return passHeaderFree(maxRecords);
    }

    /**
     * Walks up to {@code maxRecords} offsets, stopping before a record with headers; the offsets of a hole are
     * passed as the records they were.
     */
    private int passHeaderFree(final int maxRecords)
    {
        final long from = nextOffset;
        final long stop = Math.min(passStop(maxRecords), from + maxRecords);
        int at = position;
        long next = nextOffset;
        try
        {
            passing:
            while (next < stop)
            {
                position = at;
                final long after = goOnFrom(next);
                if (after > stop)
                {
                    next = after;
                    break;
                }
                next = after;
                final long segmentStop = Math.min(stop, endOfCurrentSegment());
                at = position;
                final UnsafeBuffer buffer = this.buffer;
                while (next < segmentStop)
                {
                    if (buffer.getInt(at + HEADERS_LENGTH_OFFSET) != 0)
                    {
                        break passing;
                    }
                    at += align(buffer.getInt(at + FRAME_LENGTH_OFFSET));
                    next++;
                }
            }
        }
        finally
        {
            position = at;
            if (next > stop)
            {
                // The pass ends inside a hole that reaches past it: the next pass finds its way out again.
                next = stop;
                unposition();
            }
            nextOffset = next;
        }
        return (int)(nextOffset - from);
    }

    /**
     * Where the current segment's records end as far as this poll may read: read after the committed end, a
     * segment not yet closed holds every committed record past the cursor, because a roll closes the old segment
     * before any record of the new one is committed.
     */
    private long endOfCurrentSegment()
    {
        return segment.isClosed() ? segment.endOffset() : Long.MAX_VALUE;
    }

    /**
     * Where a pass over up to {@code maxRecords} records stops: at most the committed end; the cursor itself when
     * nothing is committed past it. Positions the cursor first if a seek moved it.
     */
    private long passStop(final int maxRecords)
    {
        checkOpen();
        lastPollBytes = 0;
        final long end = log.endOffset();
        if (nextOffset >= end)
        {
            return nextOffset;
        }
        if (!positioned)
        {
            locate(nextOffset);
        }
        return Math.min(end, nextOffset + maxRecords);
    }

    /**
     * The outer step of a pass over records: when the cursor has reached the end of the current segment, enters the
     * next one and moves {@link #position} to its first record.
     *
     * @return where the pass goes on: {@code next}, or the first offset after the hole {@code next} lies in.
     */
    private long goOnFrom(final long next)
    {
        if (next < endOfCurrentSegment())
        {
            return next;
        }
        enter(next);
        position = SegmentDescriptor.HEADER_LENGTH;
        return Math.max(next, segment.baseOffset());
    }

    /**
     * Finds the position of {@code offset}: the segment that holds it, its index entry at or below it, then a scan.
     * An offset in a hole moves the cursor to the first record after the hole.
     */
    private void locate(final long offset)
    {
        enter(offset);
        positioned = true;
        if (segment.baseOffset() > offset)
        {
            position = SegmentDescriptor.HEADER_LENGTH;
            nextOffset = segment.baseOffset();
            return;
        }
        final OffsetIndex index = segment.offsetIndex();
        final int entry = index.floorEntry(offset - segment.baseOffset());
        int at = entry < 0 ? SegmentDescriptor.HEADER_LENGTH : index.positionAt(entry);
        while (buffer.getLong(at + OFFSET_OFFSET) < offset)
        {
            at += align(buffer.getInt(at + FRAME_LENGTH_OFFSET));
        }
        position = at;
    }

    /** Releases the current segment and takes the one holding {@code offset}, or the first after its hole. */
    private void enter(final long offset)
    {
        releaseSegment();
        final Segment next = log.segments().holding(offset);
        if (next == null || !next.acquire())
        {
            unposition();
            throw new OffsetOutOfRangeException(log.name(), offset, log.startOffset(), log.endOffset());
        }
        segment = next;
        buffer = next.buffer();
    }

    /**
     * A cursor moved without reading lets go of the segment it was in unless {@code offset} lies in it: retention may
     * have taken that segment out of the log, and its file and mapping go once no reader holds it. Within the
     * segment the reference stays, so moving about in it costs no monitor.
     */
    private void leaveSegmentUnlessAt(final long offset)
    {
        if (segment != null && (offset < segment.baseOffset() || offset >= endOfCurrentSegment()))
        {
            releaseSegment();
        }
    }

    /**
     * Every pass looks here before it reads, so a reader of a closed store is refused; {@link #next} looks only when
     * it reaches the end of what it knew to be readable, so it may hand out records it already had in view.
     */
    private void checkOpen()
    {
        if (log.isClosedForReaders())
        {
            throw new EngineClosedException("log " + log.name());
        }
    }

    private void releaseSegment()
    {
        if (segment != null)
        {
            segment.release();
            segment = null;
            buffer = null;
        }
    }

    @Override
    public void close()
    {
        releaseSegment();
        unposition();
    }

    /** The cursor's place in a segment is to be found again before the next read. */
    private void unposition()
    {
        positioned = false;
        readableEnd = 0;
    }
}
