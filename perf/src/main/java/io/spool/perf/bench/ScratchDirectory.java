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
 * repeated runs do not fill the disk. Not thread-safe.
 */
public final class ScratchDirectory implements AutoCloseable
{
    private final Path path;

    private ScratchDirectory(final Path path)
    {
        this.path = path;
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
