package io.spool.stream;

/**
 * Layout of the topic metadata file, rewritten whole (temp file, fsync, atomic rename) on every change.
 * <pre>
 *   +-------+---------+-------+----------------------------------------------------------+--------+
 *   | magic | version | count | count x topic                                            | crc32c |
 *   | int   | int     | int   | name(UTF) partitions(int) n(int) n x (key(UTF) value(UTF)) | int    |
 *   +-------+---------+-------+----------------------------------------------------------+--------+
 * </pre>
 * Big-endian, as {@link java.io.DataOutputStream} writes; UTF is its modified UTF-8 with a 2-byte length.
 * The crc covers every byte before it. Stateless, thread-safe.
 */
final class TopicMetadataDescriptor
{
    static final int MAGIC = 0x5350_544D; // "SPTM": Spool topic metadata
    static final int VERSION = 1;
    static final String FILE_NAME = "topics.meta";

    private TopicMetadataDescriptor()
    {
    }
}
