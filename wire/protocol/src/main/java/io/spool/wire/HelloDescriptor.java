package io.spool.wire;

import io.netty.buffer.ByteBuf;

/**
 * Bodies of the handshake ({@link OpCode#HELLO}), the first frame a client sends. The frame's version byte is the
 * protocol version the client speaks; a server that does not speak it answers {@code UNSUPPORTED_VERSION} and
 * closes. A token that differs from the server's shared secret gets {@code AUTHENTICATION_FAILED} and a close.
 * <pre>
 *  Request                                  Response
 *  +---------------------------------+      +---------------------------------+
 *  | Token Length (uint16) | Token  ...     | Heartbeat Interval Millis (i32) |  0
 *  +---------------------------------+      +---------------------------------+
 *  | Client Length (uint16)| Client ...     | Max Frame Length (i32)          |  4
 *  +---------------------------------+      +---------------------------------+
 *                                           | Max Unconfirmed Publishes (i32) |  8
 *                                           +---------------------------------+
 * </pre>
 * The client sends a heartbeat when it has written nothing for the interval; the server closes a connection it has
 * read nothing from for {@link #IDLE_INTERVALS} intervals.
 * <p>
 * Stateless, thread-safe.
 */
public final class HelloDescriptor
{
    public static final int IDLE_INTERVALS = 3;
    public static final int HEARTBEAT_OFFSET = 0;
    public static final int MAX_FRAME_LENGTH_OFFSET = 4;
    public static final int MAX_UNCONFIRMED_OFFSET = 8;
    public static final int RESPONSE_LENGTH = 12;

    private HelloDescriptor()
    {
    }

    public static void encodeRequest(final ByteBuf out, final long correlationId, final String token,
        final String clientName)
    {
        final int start = FrameDescriptor.begin(out, OpCode.HELLO, 0, correlationId);
        Fields.writeString(out, token);
        Fields.writeString(out, clientName);
        FrameDescriptor.finish(out, start);
    }

    public static void encodeResponse(final ByteBuf out, final long correlationId, final int heartbeatMillis,
        final int maxFrameLength, final int maxUnconfirmed)
    {
        final int start = FrameDescriptor.begin(out, OpCode.HELLO, FrameDescriptor.FLAG_RESPONSE, correlationId);
        out.writeIntLE(heartbeatMillis);
        out.writeIntLE(maxFrameLength);
        out.writeIntLE(maxUnconfirmed);
        FrameDescriptor.finish(out, start);
    }
}
