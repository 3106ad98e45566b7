package io.spool.api.log;

import java.util.Objects;

/**
 * When an appended record is forced to disk, and so what a confirm promises. Immutable, thread-safe.
 * <ul>
 *     <li>{@link #NONE}: the record is in the page cache when confirmed; a machine crash may lose it, a process
 *     crash does not.</li>
 *     <li>{@link #interval(long)}: confirmed after the write like {@code NONE}; the log is forced at most every
 *     interval, which bounds what a machine crash can lose.</li>
 *     <li>{@link #EVERY_BATCH}: the log is forced at the end of each pipeline batch, before any record of the batch
 *     is confirmed or visible to readers (group commit).</li>
 * </ul>
 */
public final class Durability
{
    public enum Kind
    {
        NONE, INTERVAL, EVERY_BATCH
    }

    public static final Durability NONE = new Durability(Kind.NONE, 0);
    public static final Durability EVERY_BATCH = new Durability(Kind.EVERY_BATCH, 0);

    private final Kind kind;
    private final long intervalMillis;

    private Durability(final Kind kind, final long intervalMillis)
    {
        this.kind = kind;
        this.intervalMillis = intervalMillis;
    }

    public static Durability interval(final long intervalMillis)
    {
        if (intervalMillis <= 0)
        {
            throw new IllegalArgumentException("durability interval must be positive, got " + intervalMillis + " ms");
        }
        return new Durability(Kind.INTERVAL, intervalMillis);
    }

    /**
     * Parses {@code none}, {@code every-batch} or {@code interval:MS}, the form used by configuration and the CLI.
     */
    public static Durability parse(final String text)
    {
        final String lower = text.trim().toLowerCase(java.util.Locale.ROOT);
        if (lower.equals("none"))
        {
            return NONE;
        }
        if (lower.equals("every-batch") || lower.equals("every_batch"))
        {
            return EVERY_BATCH;
        }
        if (lower.startsWith("interval:"))
        {
            try
            {
                return interval(Long.parseLong(lower.substring("interval:".length())));
            }
            catch (final NumberFormatException ex)
            {
                throw new IllegalArgumentException("durability interval is not a number of milliseconds: " + text, ex);
            }
        }
        throw new IllegalArgumentException(
            "unknown durability '" + text + "': expected none, every-batch or interval:MS");
    }

    public Kind kind()
    {
        return kind;
    }

    public long intervalMillis()
    {
        return intervalMillis;
    }

    @Override
    public boolean equals(final Object o)
    {
        return o instanceof Durability && ((Durability)o).kind == kind && ((Durability)o).intervalMillis == intervalMillis;
    }

    @Override
    public int hashCode()
    {
        return Objects.hash(kind, intervalMillis);
    }

    @Override
    public String toString()
    {
        switch (kind)
        {
            case NONE:
                return "none";
            case EVERY_BATCH:
                return "every-batch";
            default:
                return "interval:" + intervalMillis;
        }
    }
}
