package io.spool.log;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * The one way the engine asks storage to keep what it wrote: every force of a segment, a journal, a snapshot, a
 * catalog or a directory goes through here, so a test can put a layer under the engine that keeps what was forced
 * apart from what was only written and drops the rest at a simulated power loss (as RocksDB's fault-injection
 * environment and LazyFS do). {@link #FORCE} is the production layer: it forces, nothing more.
 * <p>
 * Implementations must be thread-safe: pipelines, subscription agents and admin calls force at once.
 */
public interface FileSync
{
    /** Forces to storage with the operating system's own calls (msync, fdatasync, fsync). */
    FileSync FORCE = new ForcingFileSync();

    /**
     * Forces bytes {@code [from, from + length)} of {@code file}, written through {@code mapped} (which maps the
     * file from its start), together with the file length needed to read them back.
     */
    void force(Path file, MappedByteBuffer mapped, int from, int length);

    /**
     * Forces everything written to {@code file} through {@code channel} (or through any mapping of it); with
     * {@code metadata}, the file's other metadata too.
     */
    void force(Path file, FileChannel channel, boolean metadata) throws IOException;

    /**
     * Forces at least bytes {@code [from, to)} of {@code file}, written through {@code channel} (or through any
     * mapping of it), with the file length needed to read them back: for a file that grows at its end, where a
     * layer that keeps what was forced need keep no more than the new bytes.
     */
    void force(Path file, FileChannel channel, long from, long to) throws IOException;

    /** Forces a directory's entries: files and directories created, renamed or deleted in it. */
    void forceDirectory(Path directory) throws IOException;
}
