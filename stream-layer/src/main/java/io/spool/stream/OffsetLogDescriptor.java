package io.spool.stream;

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
final class OffsetLogDescriptor
{
    static final int MAGIC = 0x4650_5053; // "SPPF" read little-endian: Spool partition offsets file
    static final int VERSION = 1;
    static final int FILE_HEADER_LENGTH = 8;
    static final int RECORD_HEADER_LENGTH = 8;
    static final int LENGTH_OFFSET = 0;
    static final int CRC_OFFSET = 4;
    static final long TOMBSTONE = -1L;

    private OffsetLogDescriptor()
    {
    }

    /** Bytes a record takes on disk for the given UTF-8 name lengths. */
    static int recordLength(final int groupBytes, final int topicBytes)
    {
        return RECORD_HEADER_LENGTH + bodyLength(groupBytes, topicBytes);
    }

    static int bodyLength(final int groupBytes, final int topicBytes)
    {
        return Short.BYTES + groupBytes + Short.BYTES + topicBytes + Integer.BYTES + Long.BYTES;
    }
}
