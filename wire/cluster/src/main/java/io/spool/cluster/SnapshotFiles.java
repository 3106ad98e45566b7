package io.spool.cluster;

import io.netty.buffer.ByteBuf;
import io.spool.log.DurableFiles;
import io.spool.log.FileSync;
import org.apache.ratis.server.protocol.TermIndex;
import org.apache.ratis.server.storage.FileInfo;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.statemachine.StateMachineStorage;
import org.apache.ratis.statemachine.impl.SimpleStateMachineStorage;
import org.apache.ratis.statemachine.impl.SingleFileSnapshotInfo;
import org.apache.ratis.util.MD5FileUtil;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One Raft group's snapshot files, kept the way Ratis' {@link SimpleStateMachineStorage} keeps them (one file per
 * snapshot, named by term and index, with an MD5 file beside it, which is what the leader sends to a member that
 * lacks the log), in the layout of {@link RaftSnapshotDescriptor}. Ratis deletes old ones by its retention setting.
 * Thread-safe as far as Ratis calls it: one snapshot is written or loaded at a time, on the group's apply thread.
 */
final class SnapshotFiles
{
    /** A snapshot read back: the entry it was taken at and what the state machine wrote. */
    record Loaded(TermIndex termIndex, Path file, ByteBuf payload)
    {
    }

    private final SimpleStateMachineStorage storage = new SimpleStateMachineStorage();
    private final int kind;

    SnapshotFiles(final int kind)
    {
        this.kind = kind;
    }

    void init(final RaftStorage raftStorage) throws IOException
    {
        storage.init(raftStorage);
    }

    StateMachineStorage storage()
    {
        return storage;
    }

    /**
     * Writes a snapshot taken at {@code at} (a temporary file, forced, renamed, then its MD5 file) and makes it the
     * latest one Ratis knows.
     */
    void write(final TermIndex at, final ByteBuf payload) throws IOException
    {
        final File file = storage.getSnapshotFile(at.getTerm(), at.getIndex());
        try
        {
            DurableFiles.replace(FileSync.FORCE, file.toPath(), RaftSnapshotDescriptor.frame(kind, at, payload));
        }
        catch (final UncheckedIOException ex)
        {
            throw ex.getCause();
        }
        storage.updateLatestSnapshot(new SingleFileSnapshotInfo(
            new FileInfo(file.toPath(), MD5FileUtil.computeAndSaveMd5ForFile(file)), at));
    }

    /**
     * The latest snapshot on disk (as Ratis finds it, which also picks up one a leader has just installed), or null
     * when the group has none.
     *
     * @throws DamagedSnapshotException when the latest fails its checks (an MD5 file that disagrees, or the
     *                                  file's own checksum or format).
     */
    Loaded loadLatest() throws IOException
    {
        final SingleFileSnapshotInfo latest = storage.loadLatestSnapshot();
        if (latest == null)
        {
            return null;
        }
        final Path file = latest.getFile().getPath();
        if (latest.getFile().getFileDigest() != null)
        {
            try
            {
                if (!MD5FileUtil.computeMd5ForFile(file.toFile()).equals(latest.getFile().getFileDigest()))
                {
                    throw new DamagedSnapshotException(file, "its content does not match its MD5 file");
                }
            }
            catch (final IOException ex)
            {
                if (ex instanceof DamagedSnapshotException damaged)
                {
                    throw damaged;
                }
                throw new DamagedSnapshotException(file, "it cannot be read (" + ex.getMessage() + ")", ex);
            }
        }
        final byte[] bytes = Files.readAllBytes(file);
        return new Loaded(latest.getTermIndex(), file,
            RaftSnapshotDescriptor.payload(file, bytes, kind, latest.getTermIndex()));
    }
}
