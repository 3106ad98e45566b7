package io.spool.wire;

import io.netty.buffer.ByteBuf;

/**
 * Bodies of {@link OpCode#FETCH}: records of one partition from an offset. When none is committed at the offset the
 * server holds the request up to Max Wait and answers as soon as one is (long poll), or with no records.
 * <pre>
 *  Request                                        Response
 *  +-------------------------------------+        +-------------------------------------+
 *  | Topic Length (uint16) | Topic ...  ...       | Partition (int32)                   |  0
 *  +-------------------------------------+        +-------------------------------------+
 *  | Partition (int32)                   |        | Log Start Offset (int64)            |  4
 *  +-------------------------------------+        +-------------------------------------+
 *  | Offset (int64)                      |        | Log End Offset (int64)              |  12
 *  +-------------------------------------+        +-------------------------------------+
 *  | Max Records (int32)                 |        | Record Count (int32)                |  20
 *  +-------------------------------------+        +-------------------------------------+
 *  | Max Bytes (int32)                   |        | Records Length (int32)              |  24
 *  +-------------------------------------+        +-------------------------------------+
 *  | Max Wait Millis (int32)             |        | Record frames (RecordDescriptor),  ...  28
 *  +-------------------------------------+        |  8-byte aligned, as in the segment  |
 *                                                 +-------------------------------------+
 * </pre>
 * The record frames are the segment's bytes, sent without re-encoding: each starts with its frame length, and the
 * next one starts at the frame length rounded up to 8. All records of one response come from one segment, so a
 * response may hold fewer records than asked even when more are committed. The first record always goes, even
 * when it is larger than Max Bytes.
 * <p>
 * Stateless, thread-safe.
 */
public final class FetchDescriptor
{
    public static final int RESPONSE_PARTITION_OFFSET = 0;
    public static final int RESPONSE_START_OFFSET = 4;
    public static final int RESPONSE_END_OFFSET = 12;
    public static final int RESPONSE_COUNT_OFFSET = 20;
    public static final int RESPONSE_RECORDS_LENGTH_OFFSET = 24;
    public static final int RESPONSE_FIXED_LENGTH = 28;

    private FetchDescriptor()
    {
    }

    public static void encodeRequest(final ByteBuf out, final long correlationId, final byte[] topicUtf8,
        final int partition, final long offset, final int maxRecords, final int maxBytes, final int maxWaitMillis)
    {
        final int start = FrameDescriptor.begin(out, OpCode.FETCH, 0, correlationId);
        out.writeShortLE(topicUtf8.length);
        out.writeBytes(topicUtf8);
        out.writeIntLE(partition);
        out.writeLongLE(offset);
        out.writeIntLE(maxRecords);
        out.writeIntLE(maxBytes);
        out.writeIntLE(maxWaitMillis);
        FrameDescriptor.finish(out, start);
    }

    /**
     * Writes the frame header and fixed part of a response whose {@code recordsLength} bytes of frames follow in a
     * separate buffer.
     */
    public static void encodeResponseHeader(final ByteBuf out, final long correlationId, final int partition,
        final long startOffset, final long endOffset, final int recordCount, final int recordsLength)
    {
        out.writeIntLE(FrameDescriptor.HEADER_LENGTH + RESPONSE_FIXED_LENGTH + recordsLength);
        out.writeByte(FrameDescriptor.VERSION);
        out.writeByte(FrameDescriptor.FLAG_RESPONSE);
        out.writeShortLE(OpCode.FETCH);
        out.writeLongLE(correlationId);
        out.writeIntLE(partition);
        out.writeLongLE(startOffset);
        out.writeLongLE(endOffset);
        out.writeIntLE(recordCount);
        out.writeIntLE(recordsLength);
    }
}
