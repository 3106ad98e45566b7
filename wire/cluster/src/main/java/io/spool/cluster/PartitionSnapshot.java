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
 *  | Format (int64) = -2                            |   minus the format's version
 *  | Replicated End (int64)                         |   the offset the next committed record takes
 *  | Producer Windows ({@link ProducerWindows#writeTo}, with Kafka epochs) |
 *  | Group Offset Count (int32)                     |
 *  | per group, by name: Group (string) | Offset (int64) |
 *  | Coordinator Epoch Count (int32)                |   ({@link CoordinatorEpochs})
 *  | per group, by name: Group (string) | Epoch (int64) |
 *  | Subscriptions ({@link ReplicatedSubscriptions#writeTo}) |
 * </pre>
 * A snapshot of version 1, written before coordinators were fenced, has neither the format nor the epochs: it
 * starts with its replicated end, which is never negative, and its groups' commits are fenced from the next on.
 * Stateless; the windows and subscriptions passed in belong to the group's apply thread, which is the thread Ratis
 * takes and loads snapshots on.
 */
final class PartitionSnapshot
{
    /** The version written; the format field holds it negated. */
    static final int VERSION = 2;

    /** What a snapshot gives back besides the windows, epochs and subscriptions it fills in place. */
    record Restored(long replicatedEnd, Map<String, Long> groupOffsets)
    {
    }

    private PartitionSnapshot()
    {
    }

    static ByteBuf encode(final long replicatedEnd, final ProducerWindows windows,
        final Map<String, Long> groupOffsets, final CoordinatorEpochs epochs,
        final ReplicatedSubscriptions subscriptions)
    {
        final ByteBuf payload = Unpooled.buffer(256);
        payload.writeLongLE(-VERSION);
        payload.writeLongLE(replicatedEnd);
        windows.writeTo(payload);
        writeByGroup(payload, groupOffsets);
        writeByGroup(payload, epochs.byGroup());
        subscriptions.writeTo(payload);
        return payload;
    }

    private static void writeByGroup(final ByteBuf out, final Map<String, Long> values)
    {
        final Map<String, Long> byName = new TreeMap<>(values);
        out.writeIntLE(byName.size());
        byName.forEach((group, value) ->
        {
            Fields.writeString(out, group);
            out.writeLongLE(value);
        });
    }

    private static Map<String, Long> readByGroup(final ByteBuf in)
    {
        final Map<String, Long> values = new TreeMap<>();
        for (int i = 0, count = in.readIntLE(); i < count; i++)
        {
            values.put(Fields.readString(in), in.readLongLE());
        }
        return values;
    }

    /**
     * Replaces the windows, coordinator epochs and subscriptions with the snapshot's, of either version.
     *
     * @throws DamagedSnapshotException naming the file when its payload cannot be read.
     */
    static Restored decode(final SnapshotFiles.Loaded snapshot, final ProducerWindows windows,
        final CoordinatorEpochs epochs, final ReplicatedSubscriptions subscriptions) throws DamagedSnapshotException
    {
        final ByteBuf in = snapshot.payload();
        try
        {
            final long first = in.readLongLE();
            final boolean versioned = first < 0;
            if (versioned && first != -VERSION)
            {
                throw new DamagedSnapshotException(snapshot.file(), "its partition state is of version " + -first +
                    ", which this node cannot read (it was written by a later Spool version); upgrade this node");
            }
            final long replicatedEnd = versioned ? in.readLongLE() : first;
            windows.readFrom(in);
            final Map<String, Long> groupOffsets = readByGroup(in);
            epochs.restore(versioned ? readByGroup(in) : Map.of());
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
