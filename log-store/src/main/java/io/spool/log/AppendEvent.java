package io.spool.log;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One slot of the ingest ring: a record copied in by a producer, and what the pipeline did with it. Pre-allocated
 * and reused; its payload buffer grows to the largest record it has carried and never shrinks, so steady-state
 * publishing allocates nothing. Owned by whichever pipeline stage the ring's sequences say holds it.
 */
final class AppendEvent
{
    private static final int INITIAL_PAYLOAD_BYTES = 512;

    PartitionLog log;
    long timestamp;
    int attributes;
    int keyLength;
    int headersLength;
    int valueLength;
    final UnsafeBuffer payload = new UnsafeBuffer(new byte[INITIAL_PAYLOAD_BYTES]);
    ConfirmListener listener;
    long correlation;

    long offset;
    /** Set by the append stage when the record's dedup id was already stored: {@link #offset} is the first one's. */
    boolean duplicate;
    /** Set by the append stage when the record was written: {@link #segment} and {@link #endPosition} say where. */
    boolean appended;
    Segment segment;
    int endPosition;
    SpoolException error;
    /** The producer failed between claiming this slot and filling it: every stage passes it by. */
    boolean aborted;

    /**
     * Copies a record in. Key, headers and value go back to back into the payload.
     */
    void set(final PartitionLog log, final long timestamp, final int attributes, final DirectBuffer key, final int keyOffset,
        final int keyLength, final DirectBuffer headers, final int headersOffset, final int headersLength,
        final DirectBuffer value, final int valueOffset, final int valueLength, final ConfirmListener listener,
        final long correlation)
    {
        final int bodyLength = Math.max(0, keyLength) + headersLength + Math.max(0, valueLength);
        if (payload.capacity() < bodyLength)
        {
            payload.wrap(new byte[Integer.highestOneBit(bodyLength - 1) << 1]);
        }
        int at = 0;
        if (keyLength > 0)
        {
            payload.putBytes(at, key, keyOffset, keyLength);
            at += keyLength;
        }
        if (headersLength > 0)
        {
            payload.putBytes(at, headers, headersOffset, headersLength);
            at += headersLength;
        }
        if (valueLength > 0)
        {
            payload.putBytes(at, value, valueOffset, valueLength);
        }
        if (this.log != log)
        {
            this.log = log;
        }
        this.timestamp = timestamp;
        this.attributes = attributes;
        this.keyLength = keyLength;
        this.headersLength = headersLength;
        this.valueLength = valueLength;
        if (this.listener != listener)
        {
            this.listener = listener;
        }
        this.correlation = correlation;
        this.offset = -1;
        this.duplicate = false;
        this.appended = false;
        this.error = null;
        this.aborted = false;
    }

    /** Turns a claimed slot the producer could not fill into a no-op: nothing is appended, nobody is told. */
    void abort()
    {
        aborted = true;
        appended = false;
        duplicate = false;
        error = null;
    }

    /**
     * The append stage wrote the record into {@code segment}. The reference is stored only when it changes, as
     * {@link #set} does with the log and the listener: a reference store into a long-lived slot dirties a GC card
     * (G1's post-write barrier) that concurrent refinement then scans, a cost worth avoiding when it comes with
     * every record. So a confirmed slot keeps the last log, listener and segment it
     * carried until it is reused: a retention bounded by the ring size.
     */
    void appendedTo(final Segment segment, final int endPosition)
    {
        if (this.segment != segment)
        {
            this.segment = segment;
        }
        this.endPosition = endPosition;
        this.appended = true;
    }
}
