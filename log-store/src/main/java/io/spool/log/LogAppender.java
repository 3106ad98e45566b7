package io.spool.log;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import static io.spool.log.RecordDescriptor.*;

/**
 * The single writer of one log: frames records into the active segment, keeps its sparse indexes, and rolls to a
 * new segment on size or age. Runs only on the pipeline's append thread; not thread-safe.
 * <p>
 * Each frame is written body first, checksum next, and its length last with an ordered store, so even a reader
 * that ignored the committed end would never see a half-written frame.
 */
final class LogAppender
{
    private final PartitionLog log;
    private final LogConfig config;
    private final CRC32C crc = new CRC32C();
    private final DedupIndex dedup;
    private boolean lastWasDuplicate;
    private boolean activeHasDedup;

    private Segment active;
    private UnsafeBuffer buffer;
    private ByteBuffer checksumView;
    private long nextOffset;
    private int writePosition;
    private int cachedEnd;
    private int bytesSinceIndex;
    private long lastIndexedTimestamp;
    private long firstTimestamp;
    private long maxTimestamp;

    LogAppender(final PartitionLog log, final Segment active, final SegmentScanner.Result scanned)
    {
        this.log = log;
        this.config = log.config();
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
        checksumView = segment.newChecksumView();
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

    /**
     * Whether the last {@link #append} found its dedup id already stored and returned the first record's offset.
     */
    boolean lastWasDuplicate()
    {
        return lastWasDuplicate;
    }

    int dedupEntries()
    {
        return dedup.size();
    }

    /**
     * Appends one record whose key, headers and value lie back to back in {@code body}, unless it carries a dedup
     * id already stored inside the window.
     *
     * @param timestamp the record's timestamp in epoch millis.
     * @param nowMillis the pipeline's clock reading for this batch; drives the age roll and the dedup window.
     * @return the offset the record was stored at, or that of the earlier record with the same dedup id.
     */
    long append(final long timestamp, final int attributes, final int keyLength, final int headersLength,
        final int valueLength, final DirectBuffer body, final int bodyOffset, final long nowMillis)
    {
        lastWasDuplicate = false;
        if ((attributes & ATTRIBUTE_DEDUP) == 0)
        {
            return write(timestamp, attributes, keyLength, headersLength, valueLength, body, bodyOffset, nowMillis);
        }
        final long found = HeadersCodec.locate(body, bodyOffset + Math.max(0, keyLength), headersLength,
            LogProducer.DEDUP_HEADER);
        final int idOffset = (int)(found >>> 32);
        final int idLength = Math.max(0, (int)found);
        final long high = DedupKey.high(body, idOffset, idLength);
        final long low = DedupKey.low(body, idOffset, idLength);
        final long earlier = dedup.find(high, low, nowMillis);
        if (earlier != DedupIndex.NOT_FOUND)
        {
            lastWasDuplicate = true;
            return earlier;
        }
        final long offset = write(timestamp, attributes, keyLength, headersLength, valueLength, body, bodyOffset, nowMillis);
        dedup.add(high, low, offset, nowMillis);
        activeHasDedup = true;
        return offset;
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

    private long write(final long timestamp, final int attributes, final int keyLength, final int headersLength,
        final int valueLength, final DirectBuffer body, final int bodyOffset, final long nowMillis)
    {
        final int frameLength = frameLength(keyLength, headersLength, valueLength);
        if (frameLength > config.maxRecordBytes())
        {
            throw new RecordTooLargeException(log.name(), frameLength, config.maxRecordBytes());
        }
        final int aligned = align(frameLength);
        if (writePosition + aligned > active.activeCapacity() ||
            (firstTimestamp >= 0 && nowMillis - firstTimestamp >= config.segmentRollMillis()))
        {
            roll(nowMillis);
        }
        if (writePosition + aligned > cachedEnd)
        {
            cacheUpTo(writePosition + aligned);
        }
        final int position = writePosition;
        final UnsafeBuffer buffer = this.buffer;
        buffer.putByte(position + VERSION_OFFSET, CURRENT_VERSION);
        buffer.putByte(position + ATTRIBUTES_OFFSET, (byte)attributes);
        buffer.putShort(position + RESERVED_OFFSET, (short)0);
        buffer.putInt(position + KEY_LENGTH_OFFSET, keyLength);
        buffer.putLong(position + OFFSET_OFFSET, nextOffset);
        buffer.putLong(position + TIMESTAMP_OFFSET, timestamp);
        buffer.putInt(position + HEADERS_LENGTH_OFFSET, headersLength);
        buffer.putInt(position + VALUE_LENGTH_OFFSET, valueLength);
        buffer.putBytes(position + HEADER_LENGTH, body, bodyOffset, frameLength - HEADER_LENGTH);
        buffer.putInt(position + CRC_OFFSET,
            Checksums.crc32c(crc, checksumView, position + CRC_START_OFFSET, position + frameLength));
        buffer.putIntOrdered(position + FRAME_LENGTH_OFFSET, frameLength);
        if (headersLength > 0)
        {
            log.appendedWithHeaders(nextOffset);
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
        writePosition = position + aligned;
        return nextOffset++;
    }

    /** The prefaulter fills the pages ahead; when it has fallen behind, this thread fills them itself. */
    private void cacheUpTo(final int end)
    {
        cachedEnd = active.cachedEnd();
        if (end > cachedEnd)
        {
            cachedEnd = active.fillTo(end);
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
        active.close(nextOffset, writePosition, firstTimestamp, maxTimestamp, activeHasDedup);
        activeHasDedup = false;
        final Segment next = Segment.createActive(log.dir(), nextOffset, config, nowMillis, log.idleMappings());
        // Attached before it is published, so whoever sees the new segment also sees its write position.
        attach(next);
        log.addSegment(next);
    }
}
