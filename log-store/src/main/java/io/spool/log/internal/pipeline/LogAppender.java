package io.spool.log.internal.pipeline;

import io.spool.api.log.DedupKey;
import io.spool.api.log.HeadersCodec;
import io.spool.api.log.LogConfig;
import io.spool.api.log.RecordView;
import io.spool.log.LogProducer;
import io.spool.log.internal.segment.IdleSegmentMappings;
import io.spool.log.internal.segment.LogSegments;
import io.spool.log.internal.segment.OffsetIndex;
import io.spool.log.internal.segment.Segment;
import io.spool.log.internal.segment.SegmentDescriptor;
import io.spool.log.internal.segment.SegmentScanner;
import io.spool.log.internal.segment.TimeIndex;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import static io.spool.api.log.RecordDescriptor.*;

/**
 * The single writer of one log: copies framed records into the active segment, keeps its sparse indexes, and
 * rolls to a new segment on size or age. Runs only on the pipeline's append thread; not thread-safe.
 * <p>
 * Producers frame and checksum records in their ring slots ({@link RecordFramer}); the writer copies a slot's
 * frames with one bulk copy, stores their offsets, and the first frame's length last with an ordered store, so
 * even a reader that ignored the committed end would never see a half-written frame.
 */
final class LogAppender
{
    private final Path dir;
    private final LogConfig config;
    private final IdleSegmentMappings idleMappings;
    private final LogSegments segments;
    /** The log's "no headers from here on" offset: moved past each record written with headers. */
    private final AtomicLong headerFreeFrom;
    private final DedupIndex dedup;
    private boolean activeHasDedup;

    private Segment active;
    private UnsafeBuffer buffer;
    private long nextOffset;
    private int writePosition;
    private int cachedEnd;
    private int bytesSinceIndex;
    private long lastIndexedTimestamp;
    private long firstTimestamp;
    private long maxTimestamp;

    LogAppender(final Path dir, final LogConfig config, final IdleSegmentMappings idleMappings,
        final LogSegments segments, final AtomicLong headerFreeFrom, final Segment active,
        final SegmentScanner.Result scanned)
    {
        this.dir = dir;
        this.config = config;
        this.idleMappings = idleMappings;
        this.segments = segments;
        this.headerFreeFrom = headerFreeFrom;
        this.dedup = new DedupIndex(config.dedupWindowMillis());
        attach(active);
        if (scanned != null)
        {
            nextOffset = scanned.nextOffset;
            writePosition = scanned.validEnd;
            bytesSinceIndex = scanned.bytesSinceIndex;
            lastIndexedTimestamp = scanned.lastIndexedTimestamp;
            firstTimestamp = scanned.firstTimestamp;
            maxTimestamp = scanned.maxTimestamp;
            activeHasDedup = scanned.hasDedup;
        }
        else
        {
            nextOffset = active.baseOffset();
        }
    }

    private void attach(final Segment segment)
    {
        active = segment;
        buffer = segment.buffer();
        writePosition = SegmentDescriptor.HEADER_LENGTH;
        cachedEnd = segment.cachedEnd();
        bytesSinceIndex = Integer.MAX_VALUE;
        lastIndexedTimestamp = Long.MIN_VALUE;
        firstTimestamp = -1;
        maxTimestamp = -1;
    }

    long nextOffset()
    {
        return nextOffset;
    }

    /** Racy when read off the writer thread; good enough for size reports. */
    int writePosition()
    {
        return writePosition;
    }

    Segment activeSegment()
    {
        return active;
    }

    int dedupEntries()
    {
        return dedup.size();
    }

    /**
     * Appends the records framed in {@code slot} at the next offsets, and says so in the slot: how many were
     * written, where the last ends, and the segment it rolled past, if it did. A slot's one record carrying a
     * dedup id already stored inside the window is not appended: the slot is marked a duplicate of the first.
     *
     * @param nowMillis the pipeline's clock reading for this batch: the age roll and the dedup window go by it.
     */
    void append(final AppendEvent slot, final long nowMillis)
    {
        if (firstTimestamp >= 0 && nowMillis - firstTimestamp >= config.segmentRollMillis())
        {
            roll(nowMillis);
        }
        final UnsafeBuffer frames = slot.frames;
        if (slot.records == 1 && (frames.getByte(ATTRIBUTES_OFFSET) & ATTRIBUTE_DEDUP) != 0)
        {
            appendUnlessDuplicate(slot, nowMillis);
            return;
        }
        final long firstOffset = nextOffset;
        slot.offset = firstOffset;
        final int length = slot.frameBytes;
        int from = 0;
        if (writePosition + length > active.activeCapacity())
        {
            // The producer keeps a slot within one segment's room, so what does not fit here fits the next.
            from = framesThatFit(frames, length, active.activeCapacity() - writePosition);
            if (from > 0)
            {
                copy(frames, 0, from);
                slot.appendedTo(active, writePosition, (int)(nextOffset - firstOffset));
                slot.rolledPast(active, writePosition, nextOffset);
            }
            roll(nowMillis);
        }
        copy(frames, from, length);
        slot.appendedTo(active, writePosition, slot.records);
    }

    private void appendUnlessDuplicate(final AppendEvent slot, final long nowMillis)
    {
        final UnsafeBuffer frames = slot.frames;
        final long found = HeadersCodec.locate(frames, keyOffset(0) + Math.max(0, frames.getInt(KEY_LENGTH_OFFSET)),
            frames.getInt(HEADERS_LENGTH_OFFSET), LogProducer.DEDUP_HEADER);
        final int idOffset = (int)(found >>> 32);
        final int idLength = Math.max(0, (int)found);
        final long high = DedupKey.high(frames, idOffset, idLength);
        final long low = DedupKey.low(frames, idOffset, idLength);
        final long earlier = dedup.find(high, low, nowMillis);
        if (earlier != DedupIndex.NOT_FOUND)
        {
            slot.offset = earlier;
            slot.duplicate = true;
            return;
        }
        slot.offset = nextOffset;
        if (writePosition + slot.frameBytes > active.activeCapacity())
        {
            roll(nowMillis);
        }
        copy(frames, 0, slot.frameBytes);
        slot.appendedTo(active, writePosition, 1);
        dedup.add(high, low, slot.offset, nowMillis);
        activeHasDedup = true;
    }

    /**
     * Recovery: a stored record inside the dedup window whose id must keep catching duplicates.
     */
    void rememberDedupId(final RecordView record)
    {
        final long found = HeadersCodec.locate(record.buffer(), record.headersOffset(), record.headersLength(),
            LogProducer.DEDUP_HEADER);
        if (found >= 0)
        {
            final int idOffset = (int)(found >>> 32);
            final int idLength = Math.max(0, (int)found);
            dedup.add(DedupKey.high(record.buffer(), idOffset, idLength), DedupKey.low(record.buffer(), idOffset, idLength),
                record.offset(), record.timestamp());
        }
    }

    /** How many bytes of whole frames, from the first, lie within {@code room}. */
    private static int framesThatFit(final UnsafeBuffer frames, final int length, final int room)
    {
        int at = 0;
        while (at < length)
        {
            final int next = at + align(frames.getInt(at + FRAME_LENGTH_OFFSET));
            if (next > room)
            {
                break;
            }
            at = next;
        }
        return at;
    }

    /**
     * Copies the frames in {@code [from, to)} of the slot to the write position with one bulk copy, then stores
     * each one's offset, and last the first frame's length with an ordered store: until then a reader, or recovery
     * after a crash, finds a zero length at the write position and none of these frames. The checksums, the
     * producer's, leave the offset out.
     */
    private void copy(final UnsafeBuffer frames, final int from, final int to)
    {
        if (from == to)
        {
            return;
        }
        final int start = writePosition;
        if (start + (to - from) > cachedEnd)
        {
            cacheUpTo(start + (to - from));
        }
        final UnsafeBuffer buffer = this.buffer;
        buffer.putBytes(start + CRC_OFFSET, frames, from + CRC_OFFSET, to - from - CRC_OFFSET);
        int at = from;
        int position = start;
        while (at < to)
        {
            final int aligned = align(frames.getInt(at + FRAME_LENGTH_OFFSET));
            buffer.putLong(position + OFFSET_OFFSET, nextOffset);
            final long timestamp = frames.getLong(at + TIMESTAMP_OFFSET);
            if (frames.getInt(at + HEADERS_LENGTH_OFFSET) > 0)
            {
                // A release store, ordered before the commit that makes the record readable.
                headerFreeFrom.lazySet(nextOffset + 1);
            }
            if (firstTimestamp < 0)
            {
                firstTimestamp = timestamp;
            }
            if (timestamp > maxTimestamp)
            {
                maxTimestamp = timestamp;
            }
            if (bytesSinceIndex >= config.indexIntervalBytes())
            {
                index(position);
            }
            bytesSinceIndex += aligned;
            nextOffset++;
            at += aligned;
            position += aligned;
        }
        writePosition = position;
        buffer.putIntOrdered(start + FRAME_LENGTH_OFFSET, frames.getInt(from + FRAME_LENGTH_OFFSET));
    }

    /**
     * The prefaulter fills the pages ahead; when it has fallen behind, this thread fills them itself. A fill that
     * stops short means the disk has no room for these frames: nothing of them is written, and the slot fails.
     */
    private void cacheUpTo(final int end)
    {
        cachedEnd = active.cachedEnd();
        if (end > cachedEnd)
        {
            cachedEnd = active.fillTo(end);
        }
        if (end > cachedEnd)
        {
            final IOException failure = active.fillFailure();
            throw new UncheckedIOException("no room to write segment " + active + " of " + dir + ": " +
                (failure == null ? "the disk refused the write" : failure.getMessage()) + "; free space there",
                failure == null ? new IOException("fill stopped short") : failure);
        }
    }

    private void index(final int position)
    {
        final int relativeOffset = (int)(nextOffset - active.baseOffset());
        final OffsetIndex offsetIndex = active.offsetIndex();
        if (!offsetIndex.isFull())
        {
            offsetIndex.append(relativeOffset, position);
        }
        final TimeIndex timeIndex = active.timeIndex();
        if (maxTimestamp > lastIndexedTimestamp && !timeIndex.isFull())
        {
            timeIndex.append(maxTimestamp, relativeOffset);
            lastIndexedTimestamp = maxTimestamp;
        }
        bytesSinceIndex = 0;
    }

    /**
     * Closes the active segment and starts the next at {@link #nextOffset}. The closed segment's reference stays
     * with the flush stage, which forces what it has not yet forced and then lets go.
     */
    private void roll(final long nowMillis)
    {
        // created first: if the disk has no room for it, the active segment stays active and whole
        final Segment next = Segment.createActive(dir, nextOffset, config, nowMillis, idleMappings);
        active.close(nextOffset, writePosition, firstTimestamp, maxTimestamp, activeHasDedup);
        activeHasDedup = false;
        // Attached before it is published, so whoever sees the new segment also sees its write position.
        attach(next);
        segments.add(next);
    }
}
