package io.spool.wire;

import io.netty.buffer.ByteBuf;

/**
 * Bodies of {@link OpCode#PUBLISH_SEQUENCED}: a {@link PublishDescriptor PUBLISH} body behind its producer's id and
 * the batch's sequence in the partition. A cluster node stores a batch once per producer id and sequence, however
 * often it is sent (to it or to another node), and answers a retry with the offsets the batch first got.
 * <pre>
 *  Request
 *  +---------------------------------------------------------------+
 *  |                     Producer Id (int64, >= 0)                 |  0
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |              Sequence (int64, per producer and partition)     |  8
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |  Topic, Partition, Record Count, Records as in PUBLISH       ...  16
 *  +---------------------------------------------------------------+
 *
 *  Response: as PUBLISH's (record count, then the offset of each record), with this op code.
 * </pre>
 * Stateless, thread-safe.
 */
public final class SequencedPublishDescriptor
{
    private SequencedPublishDescriptor()
    {
    }

    /**
     * Begins a request frame; append records with {@link PublishDescriptor#appendRecord} and close it with
     * {@link PublishDescriptor#finishRequest}.
     *
     * @return the index of the record count field.
     */
    public static int beginRequest(final ByteBuf out, final long correlationId, final long producerId,
        final long sequence, final byte[] topicUtf8, final int partition)
    {
        FrameDescriptor.begin(out, OpCode.PUBLISH_SEQUENCED, 0, correlationId);
        out.writeLongLE(producerId);
        out.writeLongLE(sequence);
        out.writeShortLE(topicUtf8.length);
        out.writeBytes(topicUtf8);
        out.writeIntLE(partition);
        final int countIndex = out.writerIndex();
        out.writeIntLE(0);
        return countIndex;
    }

    /** Writes a whole response: the record count and each record's offset. */
    public static void encodeResponse(final ByteBuf out, final long correlationId, final long[] offsets)
    {
        final int start = FrameDescriptor.begin(out, OpCode.PUBLISH_SEQUENCED, FrameDescriptor.FLAG_RESPONSE,
            correlationId);
        out.writeIntLE(offsets.length);
        for (final long offset : offsets)
        {
            out.writeLongLE(offset);
        }
        FrameDescriptor.finish(out, start);
    }

    /** Reads a response body (after the frame header): the offset of each record. */
    public static long[] decodeResponse(final ByteBuf body)
    {
        final int count = body.readIntLE();
        if (count < 0 || count > body.readableBytes() / Long.BYTES)
        {
            throw new ProtocolException(ErrorCode.MALFORMED_FRAME, "a PUBLISH_SEQUENCED answer of " + count +
                " offsets in " + body.readableBytes() + " bytes");
        }
        final long[] offsets = new long[count];
        for (int i = 0; i < count; i++)
        {
            offsets[i] = body.readLongLE();
        }
        return offsets;
    }
}
