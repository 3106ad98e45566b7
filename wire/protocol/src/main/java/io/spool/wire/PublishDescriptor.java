package io.spool.wire;

import io.netty.buffer.ByteBuf;

/**
 * Bodies of {@link OpCode#PUBLISH}: one or more records for one partition, confirmed by one response once every
 * record is stored under the topic's durability policy. A single publish is a batch of one.
 * <pre>
 *  Request
 *  +---------------------------------------------------------------+
 *  | Topic Length (uint16)         | Topic (UTF-8) ...            ...  0
 *  +---------------------------------------------------------------+
 *  |                     Partition (int32)                         |
 *  +---------------------------------------------------------------+
 *  |                    Record Count (int32, >= 1)                 |
 *  +---------------------------------------------------------------+
 *  |  Record Count times:                                          |
 *  |    Timestamp (int64, epoch millis, -1 = append time)          |  +0
 *  |    Attributes (int32, RecordDescriptor.ATTRIBUTE_*)           |  +8
 *  |    Key Length (int32, -1 = null)                              |  +12
 *  |    Headers Length (int32)                                     |  +16
 *  |    Value Length (int32, -1 = null)                            |  +20
 *  |    Key ... Headers (HeadersCodec) ... Value ...              ...  +24
 *  +---------------------------------------------------------------+
 *
 *  Response
 *  +---------------------------------------------------------------+
 *  |                    Record Count (int32)                       |  0
 *  +---------------------------------------------------------------+
 *  |          Offset of each record, in request order (int64)     ...  4
 *  +---------------------------------------------------------------+
 * </pre>
 * If any record fails the response is an error reply; records before it may be stored (at-least-once: a client
 * that retries may store them twice unless it sets a dedup id).
 * <p>
 * Stateless, thread-safe.
 */
public final class PublishDescriptor
{
    public static final int RECORD_TIMESTAMP_OFFSET = 0;
    public static final int RECORD_ATTRIBUTES_OFFSET = 8;
    public static final int RECORD_KEY_LENGTH_OFFSET = 12;
    public static final int RECORD_HEADERS_LENGTH_OFFSET = 16;
    public static final int RECORD_VALUE_LENGTH_OFFSET = 20;
    public static final int RECORD_HEADER_LENGTH = 24;

    private PublishDescriptor()
    {
    }

    /**
     * Begins a request frame; append records with {@link #appendRecord} and close it with {@link #finishRequest}.
     *
     * @return the index of the record count field, for {@link #finishRequest}.
     */
    public static int beginRequest(final ByteBuf out, final long correlationId, final byte[] topicUtf8,
        final int partition)
    {
        FrameDescriptor.begin(out, OpCode.PUBLISH, 0, correlationId);
        out.writeShortLE(topicUtf8.length);
        out.writeBytes(topicUtf8);
        out.writeIntLE(partition);
        final int countIndex = out.writerIndex();
        out.writeIntLE(0);
        return countIndex;
    }

    public static void appendRecord(final ByteBuf out, final long timestamp, final int attributes,
        final byte[] key, final byte[] headers, final byte[] value)
    {
        out.writeLongLE(timestamp);
        out.writeIntLE(attributes);
        out.writeIntLE(key == null ? -1 : key.length);
        out.writeIntLE(headers == null ? 0 : headers.length);
        out.writeIntLE(value == null ? -1 : value.length);
        if (key != null)
        {
            out.writeBytes(key);
        }
        if (headers != null)
        {
            out.writeBytes(headers);
        }
        if (value != null)
        {
            out.writeBytes(value);
        }
    }

    /** Stores the record count and the frame length; the frame starts at the buffer's index 0. */
    public static void finishRequest(final ByteBuf out, final int countIndex, final int recordCount)
    {
        out.setIntLE(countIndex, recordCount);
        FrameDescriptor.finish(out, 0);
    }

    /** Writes a whole response frame header and count; the caller appends {@code recordCount} offsets. */
    public static int beginResponse(final ByteBuf out, final long correlationId, final int recordCount)
    {
        final int start = FrameDescriptor.begin(out, OpCode.PUBLISH, FrameDescriptor.FLAG_RESPONSE, correlationId);
        out.writeIntLE(recordCount);
        return start;
    }

    public static int responseLength(final int recordCount)
    {
        return FrameDescriptor.HEADER_LENGTH + Integer.BYTES + recordCount * Long.BYTES;
    }
}
