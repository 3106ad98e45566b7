package io.spool.log;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * Small metadata files replaced atomically and durably: written beside, forced, renamed over the old one, and the
 * directory forced, so a crash leaves the old content or the new, never a mix. Thread-safe (stateless); callers
 * serialise changes to one file.
 */
public final class DurableFiles
{
    private static final String TEMPORARY_SUFFIX = ".tmp";

    private DurableFiles()
    {
    }

    /**
     * The file's content, or null when it does not exist. A temporary left by a crash mid-write is removed.
     */
    public static byte[] read(final Path file)
    {
        try
        {
            Files.deleteIfExists(temporaryOf(file));
            return Files.exists(file) ? Files.readAllBytes(file) : null;
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot read " + file, ex);
        }
    }

    /** Replaces {@code file}'s content atomically and durably, forcing through {@code sync}. */
    public static void replace(final FileSync sync, final Path file, final byte[] content)
    {
        final Path temporary = temporaryOf(file);
        try
        {
            final Path directory = file.toAbsolutePath().getParent();
            createDirectories(sync, directory);
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE))
            {
                final ByteBuffer buffer = ByteBuffer.wrap(content);
                while (buffer.hasRemaining())
                {
                    channel.write(buffer);
                }
                sync.force(temporary, channel, true);
            }
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            syncDirectory(sync, directory);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot write " + file, ex);
        }
    }

    /**
     * Creates {@code directory} and whichever of its parents are missing, forcing the parent of each one created: a
     * directory entry never forced can vanish with the power, and everything under it with it.
     */
    public static void createDirectories(final FileSync sync, final Path directory)
    {
        final Path absolute = directory.toAbsolutePath();
        if (Files.isDirectory(absolute))
        {
            return;
        }
        final Path parent = absolute.getParent();
        if (parent != null)
        {
            createDirectories(sync, parent);
        }
        try
        {
            Files.createDirectory(absolute);
            if (parent != null)
            {
                sync.forceDirectory(parent);
            }
        }
        catch (final java.nio.file.FileAlreadyExistsException raced)
        {
            if (!Files.isDirectory(absolute))
            {
                throw new UncheckedIOException("cannot create directory " + absolute + ": a file has its name", raced);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create directory " + absolute, ex);
        }
    }

    /** Deletes the file, if there is one, durably: the directory is forced after. */
    public static void delete(final FileSync sync, final Path file)
    {
        try
        {
            if (Files.deleteIfExists(file))
            {
                syncDirectory(sync, file.toAbsolutePath().getParent());
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot delete " + file, ex);
        }
    }

    /** Forces a directory's entries (new, renamed or deleted files) to disk. */
    public static void syncDirectory(final FileSync sync, final Path directory)
    {
        try
        {
            sync.forceDirectory(directory);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot sync directory " + directory, ex);
        }
    }

    /** Deletes a directory and everything in it; nothing happens when it does not exist. */
    public static void deleteTree(final Path dir)
    {
        if (!Files.exists(dir))
        {
            return;
        }
        try (java.util.stream.Stream<Path> paths = Files.walk(dir))
        {
            for (final Path path : paths.sorted(java.util.Comparator.reverseOrder()).toArray(Path[]::new))
            {
                Files.deleteIfExists(path);
            }
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot delete " + dir, ex);
        }
    }

    private static Path temporaryOf(final Path file)
    {
        return file.resolveSibling(file.getFileName() + TEMPORARY_SUFFIX);
    }
}
