package io.spool.stream.internal.group;

/**
 * Layout of the committed-offset file, an append-only log replayed on open and compacted by rewrite.
 * <pre>
 *   file header (8 bytes)
 *   0        4        8
 *   +--------+--------+
 *   | magic  |version |
 *   +--------+--------+
 *
 *   record, repeated
 *   0        4        8          10               10+g       12+g             12+g+t     16+g+t     24+g+t
 *   +--------+--------+----------+----------------+----------+----------------+----------+----------+
 *   | length | crc32c | groupLen | group (UTF-8)  | topicLen | topic (UTF-8)  | partition| offset   |
 *   +--------+--------+----------+----------------+----------+----------------+----------+----------+
 * </pre>
 * {@code length} counts the bytes after the crc; {@code crc32c} covers exactly those bytes. An offset of
 * {@link #TOMBSTONE} deletes the entry. Integers are little-endian. Stateless, thread-safe.
 */
public final class OffsetLogDescriptor
{
    public static final int MAGIC = 0x4650_5053; // "SPPF" read little-endian: Spool partition offsets file
    public static final int VERSION = 1;
    public static final int FILE_HEADER_LENGTH = 8;
    public static final int RECORD_HEADER_LENGTH = 8;
    public static final int LENGTH_OFFSET = 0;
    public static final int CRC_OFFSET = 4;
    public static final long TOMBSTONE = -1L;

    private OffsetLogDescriptor()
    {
    }

    /** Bytes a record takes on disk for the given UTF-8 name lengths. */
    public static int recordLength(final int groupBytes, final int topicBytes)
    {
        return RECORD_HEADER_LENGTH + bodyLength(groupBytes, topicBytes);
    }

    public static int bodyLength(final int groupBytes, final int topicBytes)
    {
        return Short.BYTES + groupBytes + Short.BYTES + topicBytes + Integer.BYTES + Long.BYTES;
    }
}
