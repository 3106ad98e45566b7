package io.spool.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.spool.queue.CorruptStateException;
import io.spool.wire.Fields;

import java.util.Map;
import java.util.TreeMap;

/**
 * The payload of a partition group's snapshot: what applying the group's entries built beside the Spool log, which
 * holds the records themselves. Little endian:
 * <pre>
 *  | Replicated End (int64)                         |   the offset the next committed record takes
 *  | Producer Windows ({@link ProducerWindows#writeTo}, with Kafka epochs) |
 *  | Group Offset Count (int32)                     |
 *  | per group, by name: Group (string) | Offset (int64) |
 *  | Subscriptions ({@link ReplicatedSubscriptions#writeTo}) |
 * </pre>
 * Stateless; the windows and subscriptions passed in belong to the group's apply thread, which is the thread Ratis
 * takes and loads snapshots on.
 */
final class PartitionSnapshot
{
    /** What a snapshot gives back besides the windows and subscriptions it fills in place. */
    record Restored(long replicatedEnd, Map<String, Long> groupOffsets)
    {
    }

    private PartitionSnapshot()
    {
    }

    static ByteBuf encode(final long replicatedEnd, final ProducerWindows windows,
        final Map<String, Long> groupOffsets, final ReplicatedSubscriptions subscriptions)
    {
        final ByteBuf payload = Unpooled.buffer(256);
        payload.writeLongLE(replicatedEnd);
        windows.writeTo(payload);
        final Map<String, Long> byName = new TreeMap<>(groupOffsets);
        payload.writeIntLE(byName.size());
        byName.forEach((group, offset) ->
        {
            Fields.writeString(payload, group);
            payload.writeLongLE(offset);
        });
        subscriptions.writeTo(payload);
        return payload;
    }

    /**
     * Replaces the windows and subscriptions with the snapshot's.
     *
     * @throws DamagedSnapshotException naming the file when its payload cannot be read.
     */
    static Restored decode(final SnapshotFiles.Loaded snapshot, final ProducerWindows windows,
        final ReplicatedSubscriptions subscriptions) throws DamagedSnapshotException
    {
        final ByteBuf in = snapshot.payload();
        try
        {
            final long replicatedEnd = in.readLongLE();
            windows.readFrom(in);
            final Map<String, Long> groupOffsets = new TreeMap<>();
            for (int i = 0, count = in.readIntLE(); i < count; i++)
            {
                groupOffsets.put(Fields.readString(in), in.readLongLE());
            }
            subscriptions.readFrom(in, snapshot.file());
            if (in.isReadable())
            {
                throw new DamagedSnapshotException(snapshot.file(), in.readableBytes() + " bytes follow its state");
            }
            return new Restored(replicatedEnd, groupOffsets);
        }
        catch (final IndexOutOfBoundsException | IllegalArgumentException | CorruptStateException ex)
        {
            throw new DamagedSnapshotException(snapshot.file(), "its state cannot be read (" + ex.getMessage() + ")",
                ex);
        }
    }
}
