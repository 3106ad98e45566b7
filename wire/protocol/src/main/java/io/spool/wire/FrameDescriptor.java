package io.spool.wire;

import io.netty.buffer.ByteBuf;

/**
 * Layout of every frame on a Spool connection, in both directions. All integers are little-endian, like the record
 * frames a fetch response carries as they lie in the segment, so neither side swaps bytes.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |          Frame Length (whole frame, this word included)       |  0
 *  +---------------+---------------+-------------------------------+
 *  |    Version    |     Flags     |            Op Code            |  4
 *  +---------------+---------------+-------------------------------+
 *  |                        Correlation Id                         |  8
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     Body (see the op code)                   ...  16
 *  +---------------------------------------------------------------+
 * </pre>
 * A response carries the op code and correlation id of its request with {@link #FLAG_RESPONSE}; an error reply adds
 * {@link #FLAG_ERROR} and an {@link ErrorDescriptor} body. A frame the server sends on its own (a heartbeat) has
 * neither flag.
 * <p>
 * Stateless, thread-safe.
 */
public final class FrameDescriptor
{
    public static final byte VERSION = 1;

    public static final int FLAG_RESPONSE = 0x1;
    public static final int FLAG_ERROR = 0x2;

    public static final int FRAME_LENGTH_OFFSET = 0;
    public static final int VERSION_OFFSET = 4;
    public static final int FLAGS_OFFSET = 5;
    public static final int OP_CODE_OFFSET = 6;
    public static final int CORRELATION_ID_OFFSET = 8;
    public static final int HEADER_LENGTH = 16;

    /** The smallest frame size limit a server or client accepts: room for a handshake and an error reply. */
    public static final int MIN_MAX_FRAME_LENGTH = 4096;

    private FrameDescriptor()
    {
    }

    /**
     * Writes a header with a placeholder length at the buffer's writer index.
     *
     * @return the frame's start index, for {@link #finish}.
     */
    public static int begin(final ByteBuf out, final int opCode, final int flags, final long correlationId)
    {
        final int start = out.writerIndex();
        out.writeIntLE(0);
        out.writeByte(VERSION);
        out.writeByte(flags);
        out.writeShortLE(opCode);
        out.writeLongLE(correlationId);
        return start;
    }

    /** Stores the length of the frame begun at {@code start} and ending at the writer index. */
    public static void finish(final ByteBuf out, final int start)
    {
        out.setIntLE(start + FRAME_LENGTH_OFFSET, out.writerIndex() - start);
    }

    public static int version(final ByteBuf frame)
    {
        return frame.getUnsignedByte(frame.readerIndex() + VERSION_OFFSET);
    }

    public static int flags(final ByteBuf frame)
    {
        return frame.getUnsignedByte(frame.readerIndex() + FLAGS_OFFSET);
    }

    public static int opCode(final ByteBuf frame)
    {
        return frame.getUnsignedShortLE(frame.readerIndex() + OP_CODE_OFFSET);
    }

    public static long correlationId(final ByteBuf frame)
    {
        return frame.getLongLE(frame.readerIndex() + CORRELATION_ID_OFFSET);
    }

    public static boolean isResponse(final int flags)
    {
        return (flags & FLAG_RESPONSE) != 0;
    }

    public static boolean isError(final int flags)
    {
        return (flags & FLAG_ERROR) != 0;
    }
}
