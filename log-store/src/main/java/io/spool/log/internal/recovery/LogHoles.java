package io.spool.log.internal.recovery;

import io.spool.log.DurableFiles;
import io.spool.log.FileSync;
import io.spool.log.LogHole;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The holes of a log as recovery last found them, kept in a small text file beside the segments so that a log
 * opened again knows them: a known hole is reported, but no longer as a new problem, and {@code spool verify} names
 * it with the reason recovery first gave. Layout:
 * <pre>
 *   spool-holes 1
 *   &lt;from offset&gt; &lt;to offset, exclusive&gt; &lt;reason to the end of the line&gt;
 *   ...
 * </pre>
 * The file only describes; the segments say what is readable. A lost or unreadable file costs only the knowledge
 * that its holes were reported before. Thread-safe (stateless).
 */
public final class LogHoles
{
    public static final String FILE_NAME = "holes";
    private static final String HEADER = "spool-holes 1";

    private LogHoles()
    {
    }

    /** The holes recorded in {@code logDir}; none when the file is missing or unreadable. */
    public static List<LogHole> read(final Path logDir)
    {
        final byte[] content = DurableFiles.read(logDir.resolve(FILE_NAME));
        final List<LogHole> holes = new ArrayList<>();
        if (content == null)
        {
            return holes;
        }
        final String[] lines = new String(content, StandardCharsets.UTF_8).split("\n");
        if (!lines[0].equals(HEADER))
        {
            return holes;
        }
        for (int i = 1; i < lines.length; i++)
        {
            final String[] fields = lines[i].split(" ", 3);
            try
            {
                holes.add(new LogHole(Long.parseLong(fields[0]), Long.parseLong(fields[1]),
                    fields.length == 3 ? fields[2] : ""));
            }
            catch (final NumberFormatException | ArrayIndexOutOfBoundsException ex)
            {
                return new ArrayList<>();
            }
        }
        return holes;
    }

    /** Replaces the record with {@code holes}, deleting it when there are none. */
    static void write(final FileSync sync, final Path logDir, final List<LogHole> holes)
    {
        final Path file = logDir.resolve(FILE_NAME);
        if (holes.isEmpty())
        {
            DurableFiles.delete(sync, file);
            return;
        }
        final StringBuilder text = new StringBuilder(HEADER).append('\n');
        for (final LogHole hole : holes)
        {
            text.append(hole.fromOffset()).append(' ').append(hole.toOffset()).append(' ')
                .append(hole.reason().replace('\n', ' ')).append('\n');
        }
        DurableFiles.replace(sync, file, text.toString().getBytes(StandardCharsets.UTF_8));
    }
}
