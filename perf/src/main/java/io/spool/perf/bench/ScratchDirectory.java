package io.spool.perf.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A fresh directory under a data directory for one benchmark run, deleted with everything in it on close so
 * repeated runs do not fill the disk; a run stopped with Ctrl-C deletes it on the way out too, since a benchmark
 * may have written gigabytes into it. Not thread-safe.
 */
public final class ScratchDirectory implements AutoCloseable
{
    private final Path path;
    private final Thread deleteOnExit;

    private ScratchDirectory(final Path path)
    {
        this.path = path;
        this.deleteOnExit = new Thread(this::deleteOnExit, "spool-delete-" + path.getFileName());
        Runtime.getRuntime().addShutdownHook(deleteOnExit);
    }

    /** Creates {@code dataDirectory} if needed and a new, uniquely named directory inside it. */
    public static ScratchDirectory create(final Path dataDirectory, final String prefix)
    {
        try
        {
            Files.createDirectories(dataDirectory);
            return new ScratchDirectory(Files.createTempDirectory(dataDirectory, prefix + "-"));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot create a directory for " + prefix + " in " + dataDirectory, ex);
        }
    }

    public Path path()
    {
        return path;
    }

    @Override
    public void close()
    {
        try
        {
            Runtime.getRuntime().removeShutdownHook(deleteOnExit);
        }
        catch (final IllegalStateException shutdownInProgress)
        {
            // The hook is running or about to: whichever of the two comes second finds nothing left to delete.
        }
        deleteTree();
    }

    /** Best effort while the JVM exits: a store may still be writing, and nobody is left to catch an error. */
    private void deleteOnExit()
    {
        try
        {
            deleteTree();
        }
        catch (final UncheckedIOException ex)
        {
            System.err.println("spool: could not delete " + path + ": " + ex.getCause());
        }
    }

    private void deleteTree()
    {
        if (!Files.exists(path))
        {
            return;
        }
        try
        {
            Files.walkFileTree(path, new SimpleFileVisitor<>()
            {
                @Override
                public FileVisitResult visitFile(final Path file, final BasicFileAttributes attributes)
                    throws IOException
                {
                    Files.delete(file);
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult postVisitDirectory(final Path directory, final IOException failure)
                    throws IOException
                {
                    if (failure != null)
                    {
                        throw failure;
                    }
                    Files.delete(directory);
                    return FileVisitResult.CONTINUE;
                }
            });
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot delete " + path, ex);
        }
    }
}
