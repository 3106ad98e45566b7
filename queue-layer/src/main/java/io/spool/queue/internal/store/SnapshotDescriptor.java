package io.spool.queue.internal.store;

import io.spool.queue.internal.table.FirstDeliveryTimes;

/**
 * Layout of a subscription partition state snapshot ({@code snapshot.bin}), little-endian. Stateless and
 * thread-safe.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                        magic 'SPQS'                           |
 *  +---------------------------------------------------------------+
 *  |                           version                             |
 *  +---------------------------------------------------------------+
 *  |                generation (of the journal that follows)       |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                           partition                           |
 *  +---------------------------------------------------------------+
 *  |                           reserved                            |
 *  +---------------------------------------------------------------+
 *  |                           ack floor                           |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                 read cursor (next new offset)                 |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |   settled end (past the cursor when messages expired ahead)   |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |  settled bitmap runs: count, then (64-bit word, repeat int)*  |
 *  +---------------------------------------------------------------+
 *  |    dead bitmap runs: count, then (64-bit word, repeat int)*   |
 *  +---------------------------------------------------------------+
 *  |  delivery count runs over the unsettled offsets in order:     |
 *  |            count, then (delivery count int, repeat int)*      |
 *  +---------------------------------------------------------------+
 *  |     delayed messages: count, then (offset long, due long)*    |
 *  +---------------------------------------------------------------+
 *  |  first delivery times: count, then runs of                    |
 *  |  (from offset long, length int, epoch ms long)*               |
 *  +---------------------------------------------------------------+
 *  |               CRC32C of every byte before it                  |
 *  +---------------------------------------------------------------+
 * </pre>
 * Bitmaps cover {@code [ack floor, settled end)}, word i holding offsets {@code floor + 64 i} up, the lowest offset
 * in the lowest bit. A run repeats one word, so both long acked ranges and regular patterns (every other offset
 * acked) take a few bytes, while truly scattered acks cost at most about one bit per offset: the encoding is exact
 * and never drops a range. Every snapshot is written twice, {@link #COPY_FILE_NAME} first, so a damaged one is read
 * from its copy.
 */
public final class SnapshotDescriptor
{
    static final int MAGIC = 0x53515053;
    static final int VERSION = 2;
    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 4;
    static final int GENERATION_OFFSET = 8;
    static final int PARTITION_OFFSET = 16;
    static final int FLOOR_OFFSET = 24;
    static final int CURSOR_OFFSET = 32;
    static final int SETTLED_END_OFFSET = 40;
    static final int HEADER_LENGTH = 48;
    static final int WORD_RUN_LENGTH = Long.BYTES + Integer.BYTES;
    static final int COUNT_RUN_LENGTH = 2 * Integer.BYTES;
    static final int DELAYED_LENGTH = 2 * Long.BYTES;
    static final int FIRST_DELIVERY_RUN_LENGTH = FirstDeliveryTimes.BYTES_PER_RUN;
    static final int CRC_LENGTH = Integer.BYTES;

    public static final String FILE_NAME = "snapshot.bin";
    /** The second copy, written before {@link #FILE_NAME} and read when it fails its checks. */
    static final String COPY_FILE_NAME = "snapshot.bin.bak";
    static final String TEMP_FILE_NAME = "snapshot.tmp";

    private SnapshotDescriptor()
    {
    }
}
