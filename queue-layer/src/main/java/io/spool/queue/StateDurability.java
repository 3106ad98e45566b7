package io.spool.queue;

import io.spool.api.queue.InvalidSettingsException;
import io.spool.queue.internal.store.SubscriptionStateStore;

/**
 * When the subscription state journal is forced to disk, with the same three choices as the log. Every policy
 * writes each committed batch to the file before {@link SubscriptionStateStore#commit()} returns, so a killed
 * process loses nothing committed; the policy only decides what survives a machine crash. Immutable and thread-safe.
 */
public final class StateDurability
{
    /** How the journal is forced. */
    public enum Kind
    {
        /** Never forced by commits: the operating system writes the page cache back when it likes. */
        NONE,
        /**
         * Forced at a commit when at least the interval passed since the last force; an owner with nothing to
         * commit still calls commit about once an interval so the last batch does not stay unforced.
         */
        INTERVAL,
        /** Forced at every commit, before it returns. */
        EVERY_BATCH
    }

    public static final StateDurability NONE = new StateDurability(Kind.NONE, 0);
    public static final StateDurability EVERY_BATCH = new StateDurability(Kind.EVERY_BATCH, 0);

    private final Kind kind;
    private final long intervalMillis;

    private StateDurability(final Kind kind, final long intervalMillis)
    {
        this.kind = kind;
        this.intervalMillis = intervalMillis;
    }

    /**
     * @throws InvalidSettingsException if the interval is not positive.
     */
    public static StateDurability interval(final long millis)
    {
        if (millis < 1)
        {
            throw new InvalidSettingsException("journal force interval must be >= 1 ms, was " + millis);
        }
        return new StateDurability(Kind.INTERVAL, millis);
    }

    public Kind kind()
    {
        return kind;
    }

    /** The interval for {@link Kind#INTERVAL}, else 0. */
    public long intervalMillis()
    {
        return intervalMillis;
    }

    @Override
    public String toString()
    {
        return kind == Kind.INTERVAL ? "interval(" + intervalMillis + " ms)" : kind.name().toLowerCase();
    }
}
