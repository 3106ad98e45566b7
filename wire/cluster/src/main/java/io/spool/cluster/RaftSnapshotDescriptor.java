package io.spool.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.apache.ratis.server.protocol.TermIndex;

import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Layout of a Raft group's snapshot file ({@code snapshot.TERM_INDEX} in the group's state machine directory, named
 * as Ratis' {@code SimpleStateMachineStorage} names them), little endian. Stateless, thread-safe.
 * <pre>
 *  +-------------------------------------+
 *  | Magic 'SPRS' (int32)                |
 *  | Version (int32) = 1                 |
 *  | Kind (int8: 1 partition, 2 metadata)|
 *  | Term (int64) | Index (int64)        |   the last entry the snapshot holds the effect of
 *  | Payload Length (int32)              |
 *  | Payload                             |   PartitionSnapshot's or MetadataSnapshot's
 *  | CRC32C of every byte before (int32) |
 *  +-------------------------------------+
 * </pre>
 * The term and index are in the file as well as in its name, so that a file renamed by hand or copied from another
 * group's directory is refused rather than loaded at the wrong point of the log.
 */
final class RaftSnapshotDescriptor
{
    static final int MAGIC = 0x53525053;
    static final int VERSION = 1;
    static final int KIND_PARTITION = 1;
    static final int KIND_METADATA = 2;
    private static final int HEADER_LENGTH = 4 + 4 + 1 + 8 + 8 + 4;
    private static final int CRC_LENGTH = 4;

    private RaftSnapshotDescriptor()
    {
    }

    /** The whole file: header, payload, checksum. */
    static byte[] frame(final int kind, final TermIndex at, final ByteBuf payload)
    {
        final int length = payload.readableBytes();
        final ByteBuf out = Unpooled.buffer(HEADER_LENGTH + length + CRC_LENGTH);
        out.writeIntLE(MAGIC);
        out.writeIntLE(VERSION);
        out.writeByte(kind);
        out.writeLongLE(at.getTerm());
        out.writeLongLE(at.getIndex());
        out.writeIntLE(length);
        out.writeBytes(payload, payload.readerIndex(), length);
        out.writeIntLE(crc(out.array(), out.writerIndex()));
        return out.array();
    }

    /**
     * The payload of a snapshot file's bytes, after checking its checksum, format, kind and place.
     *
     * @throws DamagedSnapshotException naming what is wrong with the file.
     */
    static ByteBuf payload(final Path file, final byte[] bytes, final int kind, final TermIndex named)
        throws DamagedSnapshotException
    {
        if (bytes.length < HEADER_LENGTH + CRC_LENGTH)
        {
            throw new DamagedSnapshotException(file, "it is " + bytes.length + " bytes, shorter than its header");
        }
        final ByteBuf in = Unpooled.wrappedBuffer(bytes);
        final int stored = in.getIntLE(bytes.length - CRC_LENGTH);
        if (stored != crc(bytes, bytes.length - CRC_LENGTH))
        {
            throw new DamagedSnapshotException(file, "it fails its checksum");
        }
        if (in.readIntLE() != MAGIC)
        {
            throw new DamagedSnapshotException(file, "it is no Spool snapshot");
        }
        final int version = in.readIntLE();
        if (version != VERSION)
        {
            throw new DamagedSnapshotException(file, "its version " + version + " is not " + VERSION +
                ", the one this node reads (it was written by another Spool version)");
        }
        final int actualKind = in.readByte();
        final TermIndex at = TermIndex.valueOf(in.readLongLE(), in.readLongLE());
        if (actualKind != kind || !at.equals(named))
        {
            throw new DamagedSnapshotException(file, "it holds a " + (actualKind == KIND_METADATA ? "metadata" :
                "partition") + " group's state at " + at + ", not this group's at " + named +
                " (copied or renamed from elsewhere)");
        }
        final int length = in.readIntLE();
        if (length != bytes.length - HEADER_LENGTH - CRC_LENGTH)
        {
            throw new DamagedSnapshotException(file, "its payload length " + length + " does not match its size");
        }
        return in.slice(HEADER_LENGTH, length);
    }

    private static int crc(final byte[] bytes, final int length)
    {
        final CRC32C crc = new CRC32C();
        crc.update(bytes, 0, length);
        return (int)crc.getValue();
    }
}
