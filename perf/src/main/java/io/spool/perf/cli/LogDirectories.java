package io.spool.perf.cli;

import io.spool.log.tools.LogInspector;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Finds partition logs on disk: directories that hold segment files. Stateless. */
final class LogDirectories
{
    private LogDirectories()
    {
    }

    static boolean isLog(final Path directory)
    {
        return LogInspector.isLogDirectory(directory);
    }

    /** {@code root} itself if it is a log, else every log below it, in path order. */
    static List<Path> logsUnder(final Path root)
    {
        if (!Files.isDirectory(root))
        {
            throw new IllegalArgumentException("no such directory: " + root);
        }
        try (Stream<Path> paths = Files.walk(root))
        {
            return paths.filter(LogDirectories::isLog).sorted().collect(Collectors.toList());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot list " + root, ex);
        }
    }
}
