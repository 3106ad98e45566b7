package io.spool.perf.baseline;

/**
 * The record frame the baselines write: the same bytes the log-store writes for a record with a null key and no
 * headers, so the baselines do exactly the framing work of an append and nothing else.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                 frame length (header+key+headers+value)       |  0
 *  +---------------------------------------------------------------+
 *  |                 CRC32C of bytes [8, frame length)             |  4
 *  +---------------+---------------+-------------------------------+
 *  |    version    |  attributes   |           reserved            |  8
 *  +---------------+---------------+-------------------------------+
 *  |                 key length (-1 = null key)                    | 12
 *  +---------------------------------------------------------------+
 *  |                 offset                                        | 16
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                 timestamp (epoch millis)                      | 24
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                 headers length                                | 32
 *  +---------------------------------------------------------------+
 *  |                 value length                                  | 36
 *  +---------------------------------------------------------------+
 *  |                 key, headers, value ...                       | 40
 *  +---------------------------------------------------------------+
 * </pre>
 * Frames start on 8-byte boundaries; the frame length excludes the padding and is stored last, with release
 * semantics, so a reader that sees a positive length sees the whole frame.
 */
public final class RawFrameLayout
{
    public static final int FRAME_ALIGNMENT = 8;
    public static final byte CURRENT_VERSION = 1;
    public static final int NULL_KEY_LENGTH = -1;

    public static final int FRAME_LENGTH_OFFSET = 0;
    public static final int CRC_OFFSET = 4;
    public static final int VERSION_OFFSET = 8;
    public static final int ATTRIBUTES_OFFSET = 9;
    public static final int RESERVED_OFFSET = 10;
    public static final int KEY_LENGTH_OFFSET = 12;
    public static final int RECORD_OFFSET_OFFSET = 16;
    public static final int TIMESTAMP_OFFSET = 24;
    public static final int HEADERS_LENGTH_OFFSET = 32;
    public static final int VALUE_LENGTH_OFFSET = 36;
    public static final int HEADER_LENGTH = 40;

    /** The CRC covers everything after the length and CRC words. */
    public static final int CRC_START_OFFSET = VERSION_OFFSET;

    private RawFrameLayout()
    {
    }

    /** Bytes a frame with this value length and no key or headers occupies, padding included. */
    public static int alignedFrameLength(final int valueLength)
    {
        return align(HEADER_LENGTH + valueLength);
    }

    public static int align(final int frameLength)
    {
        return (frameLength + FRAME_ALIGNMENT - 1) & -FRAME_ALIGNMENT;
    }
}
