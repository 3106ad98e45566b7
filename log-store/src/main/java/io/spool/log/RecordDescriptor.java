package io.spool.log;

/**
 * Layout of one stored record (a frame) inside a segment. Frames start at 8-byte aligned positions.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                 Frame Length (written last)                   |  0
 *  +---------------------------------------------------------------+
 *  |              CRC32C of bytes [8, Frame Length)                |  4
 *  +---------------+---------------+-------------------------------+
 *  |    Version    |  Attributes   |           Reserved            |  8
 *  +---------------+---------------+-------------------------------+
 *  |                 Key Length (-1 = null key)                    | 12
 *  +---------------------------------------------------------------+
 *  |                          Offset                               | 16
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                 Timestamp (epoch millis)                      | 24
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                     Headers Length                            | 32
 *  +---------------------------------------------------------------+
 *  |              Value Length (-1 = null value)                   | 36
 *  +---------------------------------------------------------------+
 *  |        Key ...  Headers (see HeadersCodec) ...  Value ...    ...  40
 *  +---------------------------------------------------------------+
 *  |            Padding to the next 8-byte boundary               ...
 *  +---------------------------------------------------------------+
 * </pre>
 * The frame length covers header, key, headers and value but not the padding. A reader that finds a frame length
 * of zero has reached the written end of the segment: pre-allocated files are zero-filled.
 */
public final class RecordDescriptor
{
    public static final byte CURRENT_VERSION = 1;
    /** Attribute bit: the headers carry a {@link DedupKey#HEADER} and the log stores the record only once per window. */
    public static final int ATTRIBUTE_DEDUP = 0x1;
    public static final int ALIGNMENT = 8;

    public static final int FRAME_LENGTH_OFFSET = 0;
    public static final int CRC_OFFSET = 4;
    public static final int VERSION_OFFSET = 8;
    public static final int ATTRIBUTES_OFFSET = 9;
    public static final int RESERVED_OFFSET = 10;
    public static final int KEY_LENGTH_OFFSET = 12;
    public static final int OFFSET_OFFSET = 16;
    public static final int TIMESTAMP_OFFSET = 24;
    public static final int HEADERS_LENGTH_OFFSET = 32;
    public static final int VALUE_LENGTH_OFFSET = 36;
    public static final int HEADER_LENGTH = 40;
    /** The checksum covers everything after itself, so a torn length or CRC word is caught as well. */
    public static final int CRC_START_OFFSET = VERSION_OFFSET;

    private RecordDescriptor()
    {
    }

    /**
     * Length of a frame, without padding, for the given body parts; a null key or value has length -1.
     */
    public static int frameLength(final int keyLength, final int headersLength, final int valueLength)
    {
        return HEADER_LENGTH + Math.max(0, keyLength) + headersLength + Math.max(0, valueLength);
    }

    /**
     * Same as {@link #frameLength(int, int, int)} but in long arithmetic, for validating caller lengths that may
     * overflow an int.
     */
    public static long frameLengthExact(final int keyLength, final int headersLength, final int valueLength)
    {
        return (long)HEADER_LENGTH + Math.max(0, keyLength) + (long)headersLength + Math.max(0, valueLength);
    }

    public static int align(final int length)
    {
        return (length + (ALIGNMENT - 1)) & ~(ALIGNMENT - 1);
    }

    public static int keyOffset(final int frameOffset)
    {
        return frameOffset + HEADER_LENGTH;
    }
}
