package io.spool.wire;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * A plain socket speaking (or abusing) the protocol byte by byte, for tests of bad input. Not thread-safe.
 */
final class RawConnection implements AutoCloseable
{
    private final Socket socket;
    private final OutputStream out;
    private final DataInputStream in;

    RawConnection(final int port) throws IOException
    {
        socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(10_000);
        socket.setTcpNoDelay(true);
        out = socket.getOutputStream();
        final InputStream input = socket.getInputStream();
        in = new DataInputStream(input);
    }

    /** Sends a well-formed handshake and reads its answer. */
    RawConnection hello(final String token) throws IOException
    {
        final ByteBuf frame = Unpooled.buffer();
        HelloDescriptor.encodeRequest(frame, 1, token, "raw");
        send(frame);
        final ByteBuffer answer = readFrame();
        if (answer == null || (answer.get(FrameDescriptor.FLAGS_OFFSET) & FrameDescriptor.FLAG_ERROR) != 0)
        {
            throw new IOException("handshake refused");
        }
        return this;
    }

    /** Writes the readable bytes of {@code frame} and releases it; false when the server already closed. */
    boolean send(final ByteBuf frame)
    {
        final byte[] bytes = new byte[frame.readableBytes()];
        frame.readBytes(bytes);
        frame.release();
        return send(bytes);
    }

    boolean send(final byte[] bytes)
    {
        try
        {
            out.write(bytes);
            out.flush();
            return true;
        }
        catch (final IOException ex)
        {
            return false;
        }
    }

    /** The next whole frame (little-endian view), or null when the server closed the connection. */
    ByteBuffer readFrame() throws IOException
    {
        try
        {
            final byte[] lengthBytes = new byte[4];
            in.readFully(lengthBytes);
            final int length = ByteBuffer.wrap(lengthBytes).order(ByteOrder.LITTLE_ENDIAN).getInt();
            final byte[] frame = new byte[length];
            System.arraycopy(lengthBytes, 0, frame, 0, 4);
            in.readFully(frame, 4, length - 4);
            return ByteBuffer.wrap(frame).order(ByteOrder.LITTLE_ENDIAN);
        }
        catch (final EOFException | SocketException ex)
        {
            return null;
        }
    }

    /** Reads an error reply and returns its code, or null when the next thing was the end of the stream. */
    ErrorCode readErrorCode() throws IOException
    {
        final ByteBuffer frame = readFrame();
        if (frame == null)
        {
            return null;
        }
        if ((frame.get(FrameDescriptor.FLAGS_OFFSET) & FrameDescriptor.FLAG_ERROR) == 0)
        {
            throw new IOException("expected an error reply, got op " + frame.getShort(FrameDescriptor.OP_CODE_OFFSET));
        }
        return ErrorCode.fromCode(frame.getShort(FrameDescriptor.HEADER_LENGTH));
    }

    /** True when the server closed the connection: the next read finds the end of the stream. */
    boolean closedByServer() throws IOException
    {
        try
        {
            return in.read() < 0;
        }
        catch (final SocketException ex)
        {
            return true;
        }
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }

    static ByteBuf frame(final int opCode, final long correlationId)
    {
        final ByteBuf frame = Unpooled.buffer();
        FrameDescriptor.begin(frame, opCode, 0, correlationId);
        return frame;
    }
}
