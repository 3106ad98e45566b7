package io.spool.api.log;

/**
 * Layout of one stored record (a frame) inside a segment. Frames start at 8-byte aligned positions.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                 Frame Length (written last)                   |  0
 *  +---------------------------------------------------------------+
 *  |       CRC32C (version 2: of every byte but the offset)       |  4
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
 * <p>
 * What the checksum covers depends on the record's version:
 * <ul>
 *   <li>version 1: bytes [8, Frame Length), everything after the checksum;</li>
 *   <li>version 2: everything but the offset, the one field the log's writer assigns: bytes [8, 16) and
 *   [24, Frame Length). So a producer frames and checksums its record on its own thread (stamping it from the
 *   store's clock when it brings no timestamp of its own) and the log's single writer only copies the frame and
 *   stores the offset, as Kafka's record batch v2 leaves its base offset out of its CRC. A damaged offset is still
 *   caught: recovery checks that offsets run on one by one.</li>
 * </ul>
 */
public final class RecordDescriptor
{
    /** Records written before the checksum left out the log's fields; still read, never written. */
    public static final byte VERSION_1 = 1;
    public static final byte CURRENT_VERSION = 2;
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
    /** Where the checksum starts, in both versions; version 2 then skips the offset. */
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
