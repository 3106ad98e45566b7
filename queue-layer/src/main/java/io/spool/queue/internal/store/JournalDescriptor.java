package io.spool.queue.internal.store;

import io.spool.queue.DeadReason;

/**
 * Layout of the subscription state journal, an append-only file of checksummed entries. Stateless and
 * thread-safe.
 * <p>
 * The file starts with a header; the generation ties it to the snapshot it follows
 * ({@code journal-<generation>.log}).
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                        magic 'SPQJ'                           |
 *  +---------------------------------------------------------------+
 *  |                           version                             |
 *  +---------------------------------------------------------------+
 *  |                          generation                           |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 * </pre>
 * Then entries, little-endian. The CRC32C covers type, item count and items; a bad length or checksum marks a torn
 * tail, which is truncated on open.
 * <pre>
 *  +---------------------------------------------------------------+
 *  |                 entry length (header included)                |
 *  +---------------------------------------------------------------+
 *  |                            CRC32C                             |
 *  +---------------------------------------------------------------+
 *  |                             type                              |
 *  +---------------------------------------------------------------+
 *  |                          item count                           |
 *  +---------------------------------------------------------------+
 *  |                      items of the type ...                    |
 *  +---------------------------------------------------------------+
 * </pre>
 * Items per type:
 * <ul>
 *     <li>{@link #FIRST_DELIVERIES}: from offset (long), count (int), time in epoch ms (long): offsets
 *     delivered for the first time, at that time;</li>
 *     <li>{@link #REDELIVERY}: offset (long), delivery number (int);</li>
 *     <li>{@link #ACK}: offset (long);</li>
 *     <li>{@link #ACK_RANGE}: from offset (long), count (int): acks of consecutive offsets;</li>
 *     <li>{@link #DEAD}: offset (long), {@link DeadReason#code()} (int);</li>
 *     <li>{@link #DELAY}: offset (long), due time in epoch ms (long);</li>
 *     <li>{@link #DEAD_LETTER_DUE}: offset (long), {@link DeadReason#code()} (int), deliveries (int), death time
 *     in epoch ms (long): the dead message's copy is owed to the dead-letter topic;</li>
 *     <li>{@link #DEAD_LETTER_STORED}: offset (long): the dead-letter topic confirmed the copy (or it can never
 *     be stored, and the engine said why).</li>
 * </ul>
 * Version 3 added the two dead-letter types; a version 2 journal has none and reads the same.
 */
public final class JournalDescriptor
{
    static final int MAGIC = 0x4A515053;
    static final int VERSION = 3;
    static final int OLDEST_READABLE_VERSION = 2;
    public static final int FILE_HEADER_LENGTH = 16;
    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int GENERATION_OFFSET = 8;

    public static final int ENTRY_HEADER_LENGTH = 16;
    public static final int LENGTH_OFFSET = 0;
    static final int CRC_OFFSET = 4;
    public static final int TYPE_OFFSET = 8;
    static final int COUNT_OFFSET = 12;

    static final int FIRST_DELIVERIES = 1;
    static final int REDELIVERY = 2;
    static final int ACK = 3;
    static final int DEAD = 4;
    static final int DELAY = 5;
    static final int ACK_RANGE = 6;
    static final int DEAD_LETTER_DUE = 7;
    public static final int DEAD_LETTER_STORED = 8;

    private JournalDescriptor()
    {
    }

    /** Bytes per item of an entry type, or -1 for an unknown type. */
    static int itemLength(final int type)
    {
        switch (type)
        {
            case FIRST_DELIVERIES:
                return 2 * Long.BYTES + Integer.BYTES;
            case REDELIVERY:
            case DEAD:
            case ACK_RANGE:
                return Long.BYTES + Integer.BYTES;
            case ACK:
            case DEAD_LETTER_STORED:
                return Long.BYTES;
            case DEAD_LETTER_DUE:
                return 2 * Long.BYTES + 2 * Integer.BYTES;
            case DELAY:
                return 2 * Long.BYTES;
            default:
                return -1;
        }
    }

    public static String fileName(final long generation)
    {
        return "journal-" + generation + ".log";
    }
}
