package io.spool.stream.internal.topic;

/**
 * Layout of the topic metadata file, rewritten whole (temp file, fsync, atomic rename) on every change, and kept
 * twice ({@code topics.meta} and {@code topics.meta.bak}, see {@link io.spool.log.CopiedFile}).
 * <pre>
 *   +-------+---------+-------+--------------------------------------------------------------------+--------+
 *   | magic | version | count | count x topic                                                      | crc32c |
 *   | int   | int     | int   | name(UTF) id(UTF) partitions(int) n(int) n x (key(UTF) value(UTF))   | int    |
 *   +-------+---------+-------+--------------------------------------------------------------------+--------+
 * </pre>
 * Big-endian, as {@link java.io.DataOutputStream} writes; UTF is its modified UTF-8 with a 2-byte length.
 * The crc covers every byte before it. Version 1 had no id; it still reads, and each topic gets an id then.
 * Stateless, thread-safe.
 */
public final class TopicMetadataDescriptor
{
    public static final int MAGIC = 0x5350_544D; // "SPTM": Spool topic metadata
    public static final int VERSION = 2;
    /** The version before topic ids, still read. */
    public static final int VERSION_WITHOUT_IDS = 1;
    public static final String FILE_NAME = "topics.meta";

    private TopicMetadataDescriptor()
    {
    }
}
