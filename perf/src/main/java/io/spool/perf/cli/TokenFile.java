package io.spool.perf.cli;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** The shared secret of {@code --token} or {@code --token-file}. Stateless. */
final class TokenFile
{
    private TokenFile()
    {
    }

    /**
     * The token given, read from {@code file}'s first line, or null for none.
     *
     * @throws ParameterException when both are given, or the file cannot be read or holds no token.
     */
    static String secret(final CommandLine commandLine, final String token, final Path file)
    {
        if (file == null)
        {
            return token;
        }
        if (token != null)
        {
            throw new ParameterException(commandLine, "--token and --token-file both give the token: give one");
        }
        final List<String> lines;
        try
        {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        }
        catch (final IOException ex)
        {
            throw new ParameterException(commandLine, "--token-file " + file + ": cannot read the file (" +
                (ex.getMessage() == null ? ex.getClass().getSimpleName() : ex.getClass().getSimpleName() + ": " +
                    ex.getMessage()) + ")");
        }
        final String secret = lines.isEmpty() ? "" : lines.get(0).strip();
        if (secret.isEmpty())
        {
            throw new ParameterException(commandLine, "--token-file " + file + ": the first line is empty; it " +
                "must hold the token");
        }
        return secret;
    }
}
