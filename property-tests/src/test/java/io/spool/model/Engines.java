package io.spool.model;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Data directories for the engines the properties open, one per sequence, removed when the sequence ends.
 */
final class Engines
{
    private Engines()
    {
    }

    static Path temporaryDirectory(final String prefix)
    {
        try
        {
            return Files.createTempDirectory(prefix);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    static void deleteDirectory(final Path dir)
    {
        try (Stream<Path> paths = Files.walk(dir))
        {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
