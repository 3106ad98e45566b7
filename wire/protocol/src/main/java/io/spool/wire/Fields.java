package io.spool.wire;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * Encodes the variable-length fields bodies share: a string is an unsigned 16-bit little-endian byte count and
 * UTF-8 bytes; a byte field is a signed 32-bit count (-1 for null) and the bytes. Reads past the end of a frame
 * throw {@link IndexOutOfBoundsException}, which the receiver reports as a malformed frame. Stateless, thread-safe.
 */
public final class Fields
{
    public static final int MAX_STRING_BYTES = 0xFFFF;

    private Fields()
    {
    }

    /** Writes {@code text}, cut to {@link #MAX_STRING_BYTES} bytes if longer (only messages can be that long). */
    public static void writeString(final ByteBuf out, final String text)
    {
        final byte[] bytes = text == null ? new byte[0] : text.getBytes(StandardCharsets.UTF_8);
        final int length = Math.min(bytes.length, MAX_STRING_BYTES);
        out.writeShortLE(length);
        out.writeBytes(bytes, 0, length);
    }

    public static String readString(final ByteBuf in)
    {
        final int length = in.readUnsignedShortLE();
        final String text = in.toString(in.readerIndex(), length, StandardCharsets.UTF_8);
        in.skipBytes(length);
        return text;
    }

    public static void writeBytes(final ByteBuf out, final byte[] bytes)
    {
        if (bytes == null)
        {
            out.writeIntLE(-1);
            return;
        }
        out.writeIntLE(bytes.length);
        out.writeBytes(bytes);
    }

    public static byte[] readBytes(final ByteBuf in)
    {
        final int length = in.readIntLE();
        if (length < -1)
        {
            throw new IndexOutOfBoundsException("negative byte field length " + length);
        }
        if (length == -1)
        {
            return null;
        }
        final byte[] bytes = new byte[length];
        in.readBytes(bytes);
        return bytes;
    }

    /** Throws when bytes are left after the body was read: the frame's length disagrees with its content. */
    public static void expectEnd(final ByteBuf in)
    {
        if (in.isReadable())
        {
            throw new IndexOutOfBoundsException(in.readableBytes() + " bytes left after the body");
        }
    }
}
