package io.spool.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A {@link FileSync} that keeps, apart from the files an engine writes, what storage would hold after a power loss:
 * of each file the bytes as they were when last forced (the range forced, for a mapped file), and of each directory
 * its entries as they were when it was last forced. {@link #losePower()} stops keeping; once the engine is closed,
 * {@link #restoreWhatWasForced()} rewrites the directory tree to exactly that: a file or directory whose entry was
 * never forced is gone, a byte never forced reads as zero (or as it was when last forced). In the spirit of LazyFS,
 * which Jepsen puts under databases to lose their unsynced writes; stricter than LazyFS in that directory entries
 * need forcing too, as POSIX says they do.
 * <p>
 * What storage holds of a file follows the file, not its name (its file key, the inode), so a rename forced in its
 * directory carries the bytes forced under the old name. Everything under the root when the layer is made counts as
 * forced. Forcing here costs a copy, not a disk flush. Thread-safe.
 */
public final class PowerLossFileSync implements FileSync
{
    private static final Object DIRECTORY = "directory";

    private final Path root;
    private final Map<Object, ForcedFile> forcedContent = new HashMap<>();
    private final Map<Path, Map<String, Object>> forcedEntries = new HashMap<>();
    private boolean powerLost;
    private long forces;

    /** Takes everything under {@code root} as it is now as forced. */
    public PowerLossFileSync(final Path root)
    {
        this.root = root.toAbsolutePath();
        try (Stream<Path> paths = Files.walk(this.root))
        {
            for (final Path path : paths.toList())
            {
                if (Files.isDirectory(path))
                {
                    forcedEntries.put(path, entriesOf(path));
                }
                else
                {
                    forcedContent.put(identityOf(path), ForcedFile.of(Files.readAllBytes(path)));
                }
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    @Override
    public synchronized void force(final Path file, final MappedByteBuffer mapped, final int from, final int length)
    {
        if (powerLost)
        {
            return;
        }
        forces++;
        try
        {
            final byte[] bytes = new byte[length];
            mapped.get(from, bytes, 0, length);
            forcedFile(file).write(from, bytes, Files.size(file));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    @Override
    public synchronized void force(final Path file, final FileChannel channel, final boolean metadata)
        throws IOException
    {
        if (powerLost)
        {
            return;
        }
        forces++;
        // Read through the file, not the channel, which may be open for writing only; both see the page cache.
        forcedContent.put(identityOf(file), ForcedFile.of(Files.readAllBytes(file)));
    }

    @Override
    public synchronized void force(final Path file, final FileChannel channel, final long from, final long to)
        throws IOException
    {
        if (powerLost)
        {
            return;
        }
        forces++;
        final ByteBuffer bytes = ByteBuffer.allocate((int)(to - from));
        try (FileChannel reading = FileChannel.open(file, StandardOpenOption.READ))
        {
            while (bytes.hasRemaining() && reading.read(bytes, from + bytes.position()) >= 0)
            {
                continue;
            }
        }
        forcedFile(file).write(from, bytes.array(), Files.size(file));
    }

    private ForcedFile forcedFile(final Path file) throws IOException
    {
        return forcedContent.computeIfAbsent(identityOf(file), identity -> new ForcedFile());
    }

    @Override
    public synchronized void forceDirectory(final Path directory) throws IOException
    {
        if (powerLost)
        {
            return;
        }
        forces++;
        forcedEntries.put(directory.toAbsolutePath(), entriesOf(directory.toAbsolutePath()));
    }

    /** From now on nothing more reaches storage: what follows is written to memory that the power loss takes. */
    public synchronized void losePower()
    {
        powerLost = true;
    }

    /** How many forces storage has seen. */
    public synchronized long forces()
    {
        return forces;
    }

    /**
     * After the engine that wrote under the root was closed: makes the tree under the root what storage kept, as an
     * engine opened after the power loss would find it.
     */
    public synchronized void restoreWhatWasForced()
    {
        final Map<Path, ForcedFile> files = new LinkedHashMap<>();
        final Map<Path, Boolean> directories = new LinkedHashMap<>();
        collect(root, files, directories);
        try
        {
            try (Stream<Path> paths = Files.walk(root))
            {
                for (final Path path : paths.sorted(Comparator.reverseOrder()).toList())
                {
                    if (!path.equals(root))
                    {
                        Files.delete(path);
                    }
                }
            }
            for (final Path directory : directories.keySet())
            {
                Files.createDirectories(directory);
            }
            for (final Map.Entry<Path, ForcedFile> file : files.entrySet())
            {
                file.getValue().writeTo(file.getKey());
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    private void collect(final Path directory, final Map<Path, ForcedFile> files,
        final Map<Path, Boolean> directories)
    {
        for (final Map.Entry<String, Object> entry : forcedEntries.getOrDefault(directory, Map.of()).entrySet())
        {
            final Path path = directory.resolve(entry.getKey());
            if (entry.getValue() == DIRECTORY)
            {
                directories.put(path, true);
                collect(path, files, directories);
            }
            else
            {
                files.put(path, forcedContent.getOrDefault(entry.getValue(), new ForcedFile()));
            }
        }
    }

    private static Map<String, Object> entriesOf(final Path directory) throws IOException
    {
        final Map<String, Object> entries = new HashMap<>();
        try (Stream<Path> children = Files.list(directory))
        {
            for (final Path child : children.toList())
            {
                try
                {
                    entries.put(child.getFileName().toString(),
                        Files.isDirectory(child) ? DIRECTORY : identityOf(child));
                }
                catch (final NoSuchFileException deletedMeanwhile)
                {
                    continue;
                }
            }
        }
        return entries;
    }

    private static Object identityOf(final Path file) throws IOException
    {
        return Files.readAttributes(file, BasicFileAttributes.class).fileKey();
    }

    /**
     * What storage holds of one file: its length and the bytes forced, in chunks, so that forcing a few bytes at
     * the end of a large sparse file costs a few bytes. Guarded by the layer's monitor.
     */
    private static final class ForcedFile
    {
        private static final int CHUNK = 64 * 1024;

        private final Map<Long, byte[]> chunks = new HashMap<>();
        private long length;

        static ForcedFile of(final byte[] content)
        {
            final ForcedFile file = new ForcedFile();
            file.write(0, content, content.length);
            return file;
        }

        /** Bytes forced at {@code position}; the file is {@code fileLength} long now. */
        void write(final long position, final byte[] bytes, final long fileLength)
        {
            if (fileLength < length)
            {
                // The force carries the file's new length: what was cut off is gone, and reads as zero if the
                // file grows again.
                chunks.keySet().removeIf(index -> index * CHUNK >= fileLength);
                final byte[] partial = chunks.get(fileLength / CHUNK);
                if (partial != null)
                {
                    java.util.Arrays.fill(partial, (int)(fileLength % CHUNK), CHUNK, (byte)0);
                }
            }
            length = fileLength;
            for (int i = 0; i < bytes.length; )
            {
                final long at = position + i;
                final byte[] chunk = chunks.computeIfAbsent(at / CHUNK, index -> new byte[CHUNK]);
                final int n = (int)Math.min(bytes.length - i, CHUNK - at % CHUNK);
                System.arraycopy(bytes, i, chunk, (int)(at % CHUNK), n);
                i += n;
            }
        }

        void writeTo(final Path path) throws IOException
        {
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))
            {
                for (final Map.Entry<Long, byte[]> chunk : chunks.entrySet())
                {
                    final long at = chunk.getKey() * CHUNK;
                    if (at < length)
                    {
                        channel.write(ByteBuffer.wrap(chunk.getValue(), 0, (int)Math.min(CHUNK, length - at)), at);
                    }
                }
                channel.truncate(length);
                if (channel.size() < length)
                {
                    channel.write(ByteBuffer.allocate(1), length - 1);
                }
            }
        }
    }
}
