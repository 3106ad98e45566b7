package io.spool.perf.cli;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Checks a file option before it is used: the TLS library's own message for a missing file says it holds no valid
 * certificates, which sends the user looking at the file's contents instead of its path.
 */
final class ReadableFile
{
    private ReadableFile()
    {
    }

    /** @throws ParameterException when {@code file} is given and cannot be read; the message names the option. */
    static void require(final CommandLine commandLine, final String option, final Path file)
    {
        if (file != null && !Files.isReadable(file))
        {
            throw new ParameterException(commandLine, option + " " + file + ": cannot read the file");
        }
    }
}
