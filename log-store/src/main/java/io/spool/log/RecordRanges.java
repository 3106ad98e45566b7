package io.spool.log;

import org.agrona.DirectBuffer;

/**
 * Checks that the key, headers and value a caller publishes lie inside the buffers they name, before anything is
 * claimed: a range past its buffer is the caller's mistake and must be refused with nothing published, never
 * discovered halfway through a copy into the ring. Stateless; thread-safe.
 */
public final class RecordRanges
{
    private RecordRanges()
    {
    }

    /**
     * @param keyLength     -1 for a null key.
     * @param headersLength 0 for no headers.
     * @param valueLength   -1 for a null value.
     * @throws IllegalArgumentException  when a length is below what it may be.
     * @throws IndexOutOfBoundsException when a field's bytes do not lie inside its buffer.
     */
    public static void check(final DirectBuffer key, final int keyOffset, final int keyLength,
        final DirectBuffer headers, final int headersOffset, final int headersLength,
        final DirectBuffer value, final int valueOffset, final int valueLength)
    {
        if (keyLength < -1 || valueLength < -1 || headersLength < 0)
        {
            throw new IllegalArgumentException("invalid lengths: key " + keyLength + ", headers " + headersLength +
                ", value " + valueLength + " (-1 means null for key and value)");
        }
        checkField("key", key, keyOffset, keyLength);
        checkField("headers", headers, headersOffset, headersLength);
        checkField("value", value, valueOffset, valueLength);
    }

    /** A field of {@code length} bytes (none for 0 or -1) at {@code offset} must lie inside {@code buffer}. */
    static void checkField(final String field, final DirectBuffer buffer, final int offset, final int length)
    {
        if (length <= 0)
        {
            return;
        }
        if (buffer == null)
        {
            throw new IllegalArgumentException("the " + field + " is " + length + " bytes long but its buffer is " +
                "null; nothing was published");
        }
        if (offset < 0 || (long)offset + length > buffer.capacity())
        {
            throw new IndexOutOfBoundsException("the " + field + " (" + length + " bytes at offset " + offset +
                ") does not lie inside its buffer of " + buffer.capacity() + " bytes; nothing was published");
        }
    }
}
