package io.spool.queue;

import io.spool.api.queue.InvalidSettingsException;
import io.spool.log.FileSync;
import io.spool.queue.internal.store.SubscriptionStateStore;

/**
 * How a {@link SubscriptionStateStore} keeps its files: the journal's {@link StateDurability}, the journal size
 * after which a commit compacts it into a snapshot, the window the journal is written through (by which its file
 * grows ahead of what it holds), and the {@link FileSync} its forces go through (the log store's, set by the
 * registry). Immutable and thread-safe.
 */
public final class StateStoreConfig
{
    public static final long DEFAULT_COMPACTION_THRESHOLD_BYTES = 64L * 1024 * 1024;
    /** Journals are read back through one mapping, so they must stay well below 2 GiB. */
    public static final long MAX_COMPACTION_THRESHOLD_BYTES = 1L << 30;

    public static final int DEFAULT_JOURNAL_WINDOW_BYTES = 16 * 1024 * 1024;
    /** The journal grows by whole steps of zeros, so a window holds a whole number of them. */
    public static final int MIN_JOURNAL_WINDOW_BYTES = 64 * 1024;
    public static final int MAX_JOURNAL_WINDOW_BYTES = 1 << 30;

    public static final StateStoreConfig DEFAULT = new StateStoreConfig(StateDurability.NONE,
        DEFAULT_COMPACTION_THRESHOLD_BYTES, DEFAULT_JOURNAL_WINDOW_BYTES, FileSync.FORCE);

    private final StateDurability durability;
    private final long compactionThresholdBytes;
    private final int journalWindowBytes;
    private final FileSync fileSync;

    private StateStoreConfig(final StateDurability durability, final long compactionThresholdBytes,
        final int journalWindowBytes, final FileSync fileSync)
    {
        this.durability = durability;
        this.compactionThresholdBytes = compactionThresholdBytes;
        this.journalWindowBytes = journalWindowBytes;
        this.fileSync = fileSync;
    }

    /**
     * @throws InvalidSettingsException if durability is null.
     */
    public StateStoreConfig durability(final StateDurability durability)
    {
        if (durability == null)
        {
            throw new InvalidSettingsException("journal durability must be none, interval or every batch, was null");
        }
        return new StateStoreConfig(durability, compactionThresholdBytes, journalWindowBytes, fileSync);
    }

    /**
     * @throws InvalidSettingsException if the threshold is not between 1 KiB and 1 GiB.
     */
    public StateStoreConfig compactionThresholdBytes(final long bytes)
    {
        if (bytes < 1024 || bytes > MAX_COMPACTION_THRESHOLD_BYTES)
        {
            throw new InvalidSettingsException("journal compaction threshold must be between 1024 and " +
                MAX_COMPACTION_THRESHOLD_BYTES + " bytes, was " + bytes);
        }
        return new StateStoreConfig(durability, bytes, journalWindowBytes, fileSync);
    }

    /**
     * The window the journal is written through: mapping one allocates, so a large window keeps the hot path free
     * of allocation, while the file grows (sparse) by up to a window ahead of what it holds, which a recovery after
     * a crash reads through. A small one suits engines opened and crashed many times, as tests do.
     *
     * @throws InvalidSettingsException if it is not a multiple of 64 KiB between 64 KiB and 1 GiB.
     */
    public StateStoreConfig journalWindowBytes(final int bytes)
    {
        if (bytes < MIN_JOURNAL_WINDOW_BYTES || bytes > MAX_JOURNAL_WINDOW_BYTES || bytes % MIN_JOURNAL_WINDOW_BYTES != 0)
        {
            throw new InvalidSettingsException("journal window must be a multiple of " + MIN_JOURNAL_WINDOW_BYTES +
                " bytes between " + MIN_JOURNAL_WINDOW_BYTES + " and " + MAX_JOURNAL_WINDOW_BYTES + ", was " + bytes);
        }
        return new StateStoreConfig(durability, compactionThresholdBytes, bytes, fileSync);
    }

    /** The same settings, forcing through {@code sync}. */
    public StateStoreConfig fileSync(final FileSync sync)
    {
        return new StateStoreConfig(durability, compactionThresholdBytes, journalWindowBytes, sync);
    }

    public FileSync fileSync()
    {
        return fileSync;
    }

    public StateDurability durability()
    {
        return durability;
    }

    public long compactionThresholdBytes()
    {
        return compactionThresholdBytes;
    }

    public int journalWindowBytes()
    {
        return journalWindowBytes;
    }

    @Override
    public String toString()
    {
        return "StateStoreConfig{durability=" + durability + ", compactionThresholdBytes=" +
            compactionThresholdBytes + ", journalWindowBytes=" + journalWindowBytes + '}';
    }
}
