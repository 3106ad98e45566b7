package io.spool.log.internal.segment;

import io.spool.log.DurableFiles;
import io.spool.log.FileSync;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The offset retention last moved a log's start to, kept in a small file beside the segments. Retention writes it
 * before deleting any segment, so a segment file left behind (a reader still held it, or a crash came first) is known
 * at the next open as retention's leftover, deleted, and not mistaken for the start of a log with a hole after it.
 * Layout:
 * <pre>
 *   spool-log-start 1
 *   &lt;offset&gt;
 * </pre>
 * A missing or unreadable file means no retention is known: every segment found is part of the log. Thread-safe
 * (stateless).
 */
public final class LogStart
{
    static final String FILE_NAME = "log-start";
    private static final String HEADER = "spool-log-start 1";

    private LogStart()
    {
    }

    /** The start retention reached in {@code logDir}; 0 when none is recorded. */
    public static long read(final Path logDir)
    {
        final byte[] content = DurableFiles.read(logDir.resolve(FILE_NAME));
        if (content == null)
        {
            return 0;
        }
        final String[] lines = new String(content, StandardCharsets.UTF_8).split("\n");
        if (lines.length < 2 || !lines[0].equals(HEADER))
        {
            return 0;
        }
        try
        {
            return Math.max(0, Long.parseLong(lines[1].trim()));
        }
        catch (final NumberFormatException ex)
        {
            return 0;
        }
    }

    /**
     * How many of {@code bases} (sorted segment base offsets) are retention's leftovers: each wholly below
     * {@code logStart}, the next segment starting at or below it. The last segment is never one.
     */
    public static int leftovers(final long[] bases, final long logStart)
    {
        int count = 0;
        while (count < bases.length - 1 && bases[count + 1] <= logStart)
        {
            count++;
        }
        return count;
    }

    /** Records durably that every offset below {@code offset} was deleted by retention. */
    public static void write(final FileSync sync, final Path logDir, final long offset)
    {
        DurableFiles.replace(sync, logDir.resolve(FILE_NAME),
            (HEADER + '\n' + offset + '\n').getBytes(StandardCharsets.UTF_8));
    }
}
