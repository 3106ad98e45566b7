package io.spool.api.log;

import io.spool.api.SpoolException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Encoding of a record's headers, in insertion order.
 * <pre>
 *  | count (int) | name length (short) | name (UTF-8) | value length (int, -1 = null) | value | ... repeated
 * </pre>
 * Thread-safe (stateless).
 */
public final class HeadersCodec
{
    /** Shared: an empty array has nothing a caller could change. */
    private static final byte[] NO_HEADERS = new byte[0];

    private HeadersCodec()
    {
    }

    public static byte[] encode(final Map<String, byte[]> headers)
    {
        if (headers == null || headers.isEmpty())
        {
            return NO_HEADERS;
        }
        int length = Integer.BYTES;
        final byte[][] names = new byte[headers.size()][];
        int i = 0;
        for (final Map.Entry<String, byte[]> e : headers.entrySet())
        {
            names[i] = e.getKey().getBytes(StandardCharsets.UTF_8);
            if (names[i].length > Short.MAX_VALUE)
            {
                throw new IllegalArgumentException("header name longer than " + Short.MAX_VALUE + " bytes: " +
                    e.getKey().substring(0, 40) + "...");
            }
            length += Short.BYTES + names[i].length + Integer.BYTES + (e.getValue() == null ? 0 : e.getValue().length);
            i++;
        }
        final byte[] out = new byte[length];
        final MutableDirectBuffer buffer = new UnsafeBuffer(out);
        int pos = 0;
        buffer.putInt(pos, headers.size());
        pos += Integer.BYTES;
        i = 0;
        for (final byte[] value : headers.values())
        {
            buffer.putShort(pos, (short)names[i].length);
            pos += Short.BYTES;
            buffer.putBytes(pos, names[i]);
            pos += names[i].length;
            buffer.putInt(pos, value == null ? -1 : value.length);
            pos += Integer.BYTES;
            if (value != null)
            {
                buffer.putBytes(pos, value);
                pos += value.length;
            }
            i++;
        }
        return out;
    }

    /**
     * Decodes headers; an empty region means no headers.
     *
     * @throws SpoolException when the bytes are not a valid encoding.
     */
    public static Map<String, byte[]> decode(final DirectBuffer buffer, final int offset, final int length)
    {
        final Map<String, byte[]> headers = new LinkedHashMap<>();
        if (length == 0)
        {
            return headers;
        }
        final int end = offset + length;
        int pos = offset;
        final int count = readInt(buffer, pos, end);
        pos += Integer.BYTES;
        for (int i = 0; i < count; i++)
        {
            final int nameLength = readShort(buffer, pos, end);
            pos += Short.BYTES;
            checkRoom(pos, nameLength, end);
            final String name = buffer.getStringWithoutLengthUtf8(pos, nameLength);
            pos += nameLength;
            final int valueLength = readInt(buffer, pos, end);
            pos += Integer.BYTES;
            byte[] value = null;
            if (valueLength >= 0)
            {
                checkRoom(pos, valueLength, end);
                value = new byte[valueLength];
                buffer.getBytes(pos, value);
                pos += valueLength;
            }
            headers.put(name, value);
        }
        return headers;
    }

    /**
     * Finds the first header with the given name without decoding the others.
     *
     * @return the value bytes, or null when absent or null-valued.
     */
    public static byte[] find(final DirectBuffer buffer, final int offset, final int length, final String name)
    {
        final long found = locate(buffer, offset, length, name.getBytes(StandardCharsets.UTF_8));
        if (found < 0 || (int)found < 0)
        {
            return null;
        }
        final byte[] value = new byte[(int)found];
        buffer.getBytes((int)(found >>> 32), value);
        return value;
    }

    /**
     * Finds the first header named {@code name} (UTF-8 bytes) without allocating.
     *
     * @return -1 when absent; else the value's position in the high 32 bits and its length (-1 for a null value)
     * in the low 32 bits.
     */
    public static long locate(final DirectBuffer buffer, final int offset, final int length, final byte[] wanted)
    {
        if (length == 0)
        {
            return -1;
        }
        final int end = offset + length;
        int pos = offset;
        final int count = readInt(buffer, pos, end);
        pos += Integer.BYTES;
        for (int i = 0; i < count; i++)
        {
            final int nameLength = readShort(buffer, pos, end);
            pos += Short.BYTES;
            checkRoom(pos, nameLength, end);
            final boolean match = nameLength == wanted.length && equalBytes(buffer, pos, wanted);
            pos += nameLength;
            final int valueLength = readInt(buffer, pos, end);
            pos += Integer.BYTES;
            if (match)
            {
                checkRoom(pos, Math.max(0, valueLength), end);
                return ((long)pos << 32) | (valueLength & 0xFFFF_FFFFL);
            }
            pos += Math.max(0, valueLength);
        }
        return -1;
    }

    private static boolean equalBytes(final DirectBuffer buffer, final int pos, final byte[] wanted)
    {
        for (int j = 0; j < wanted.length; j++)
        {
            if (buffer.getByte(pos + j) != wanted[j])
            {
                return false;
            }
        }
        return true;
    }

    private static int readInt(final DirectBuffer buffer, final int pos, final int end)
    {
        checkRoom(pos, Integer.BYTES, end);
        return buffer.getInt(pos);
    }

    private static int readShort(final DirectBuffer buffer, final int pos, final int end)
    {
        checkRoom(pos, Short.BYTES, end);
        final int value = buffer.getShort(pos);
        if (value < 0)
        {
            throw new SpoolException("malformed headers: negative name length " + value);
        }
        return value;
    }

    private static void checkRoom(final int pos, final int needed, final int end)
    {
        if (needed < 0 || pos + needed > end)
        {
            throw new SpoolException("malformed headers: field of " + needed + " bytes at " + pos +
                " runs past the end of the headers at " + end);
        }
    }
}
