package io.spool.log.internal.pipeline;

import io.spool.api.SpoolException;
import io.spool.log.ConfirmListener;
import io.spool.log.internal.segment.Segment;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/**
 * One slot of the ingest ring: one or more records a producer framed and checksummed into it back to back
 * ({@link RecordFramer}), and what the pipeline did with them. Pre-allocated and reused; its frame buffer grows to
 * the largest batch it has carried and never shrinks, so steady-state publishing allocates nothing. Owned by
 * whichever pipeline stage the ring's sequences say holds it.
 * <p>
 * Record {@code i} of the slot is confirmed with correlation {@link #correlation}{@code + i} and offset
 * {@link #offset}{@code + i}: the writer stores a slot's records at consecutive offsets.
 */
public final class AppendEvent
{
    /**
     * How many bytes of frames a producer packs into one slot before it takes the next, and what every slot holds
     * from the start: enough that the append stage's work per slot is spread over tens of small records, small
     * enough that the ring's slots take a few MiB of heap. A slot grows only for a record larger than this, which
     * takes a slot of its own; slots are allocated whole up front because a slot first used after warm-up would
     * otherwise allocate on a producer's hot path.
     */
    public static final int BATCH_BYTES = 4 * 1024;

    /** The writing side of the log the slot's records go to. */
    public PartitionWriter log;
    /** The records' frames, back to back from 0, each at an aligned length; the offsets are still blank. */
    final UnsafeBuffer frames = new UnsafeBuffer(new byte[BATCH_BYTES]);
    /** A view of {@link #frames}'s array for the checksum, replaced only when the array grows. */
    ByteBuffer framesView = ByteBuffer.wrap(frames.byteArray());
    int frameBytes;
    int records;
    ConfirmListener listener;
    long correlation;

    /** The first record's offset, or for a duplicate, the offset of the record first stored with its dedup id. */
    long offset;
    /** Set by the append stage when the slot's one record had a dedup id already stored. */
    boolean duplicate;
    /** How many of the slot's records the append stage wrote; those after them failed with {@link #error}. */
    int appendedRecords;
    /** Where the last appended record ends: in {@link #segment}, at {@link #endPosition}. */
    Segment segment;
    int endPosition;
    /**
     * Whether the writer rolled to a new segment after writing some of the slot's records into
     * {@link #rolledSegment}, which they fill up to {@link #rolledEndPosition}, offsets below {@link #rolledEndOffset}.
     */
    boolean rolled;
    Segment rolledSegment;
    int rolledEndPosition;
    long rolledEndOffset;
    SpoolException error;
    /** The producer failed between claiming this slot and filling it: every stage passes it by. */
    boolean aborted;

    /**
     * Empties the slot for records of {@code log} that take {@code bytes} bytes of frames.
     */
    public void begin(final PartitionWriter log, final int bytes, final ConfirmListener listener, final long correlation)
    {
        if (frames.capacity() < bytes)
        {
            frames.wrap(new byte[Integer.highestOneBit(bytes - 1) << 1]);
            framesView = ByteBuffer.wrap(frames.byteArray());
        }
        // References are stored only when they change: see appendedTo.
        if (this.log != log)
        {
            this.log = log;
        }
        if (this.listener != listener)
        {
            this.listener = listener;
        }
        this.correlation = correlation;
        this.frameBytes = 0;
        this.records = 0;
        this.offset = -1;
        this.duplicate = false;
        this.appendedRecords = 0;
        this.rolled = false;
        this.error = null;
        this.aborted = false;
    }

    /** A record of {@code alignedLength} bytes was framed at {@link #frameBytes}. */
    void framed(final int alignedLength)
    {
        frameBytes += alignedLength;
        records++;
    }

    /** Turns a claimed slot the producer could not fill into a no-op: nothing is appended, nobody is told. */
    public void abort()
    {
        aborted = true;
        appendedRecords = 0;
        rolled = false;
        duplicate = false;
        error = null;
    }

    /**
     * The append stage wrote the slot's first {@code appendedRecords} records, the last of them ending in
     * {@code segment} at {@code endPosition}. The reference is stored only when it changes, as {@link #begin} does
     * with the log and the listener: a reference store into a long-lived slot dirties a GC card (G1's post-write
     * barrier) that concurrent refinement then scans, a cost worth avoiding when it comes with every slot. So a
     * confirmed slot keeps the last log, listener and segments it carried until it is reused: a retention bounded
     * by the ring size.
     */
    void appendedTo(final Segment segment, final int endPosition, final int appendedRecords)
    {
        if (this.segment != segment)
        {
            this.segment = segment;
        }
        this.endPosition = endPosition;
        this.appendedRecords = appendedRecords;
    }

    /** The writer filled {@code segment} with some of the slot's records and rolled past it. */
    void rolledPast(final Segment segment, final int endPosition, final long endOffset)
    {
        if (this.rolledSegment != segment)
        {
            this.rolledSegment = segment;
        }
        this.rolledEndPosition = endPosition;
        this.rolledEndOffset = endOffset;
        this.rolled = true;
    }
}
