package io.spool.queue;

import io.spool.log.FileSync;

/**
 * How a {@link SubscriptionStateStore} keeps its files: the journal's {@link StateDurability}, the journal size
 * after which a commit compacts it into a snapshot, and the {@link FileSync} its forces go through (the log store's,
 * set by the registry). Immutable and thread-safe.
 */
public final class StateStoreConfig
{
    public static final long DEFAULT_COMPACTION_THRESHOLD_BYTES = 64L * 1024 * 1024;
    /** Journals are read back through one mapping, so they must stay well below 2 GiB. */
    public static final long MAX_COMPACTION_THRESHOLD_BYTES = 1L << 30;

    public static final StateStoreConfig DEFAULT =
        new StateStoreConfig(StateDurability.NONE, DEFAULT_COMPACTION_THRESHOLD_BYTES, FileSync.FORCE);

    private final StateDurability durability;
    private final long compactionThresholdBytes;
    private final FileSync fileSync;

    private StateStoreConfig(final StateDurability durability, final long compactionThresholdBytes,
        final FileSync fileSync)
    {
        this.durability = durability;
        this.compactionThresholdBytes = compactionThresholdBytes;
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
        return new StateStoreConfig(durability, compactionThresholdBytes, fileSync);
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
        return new StateStoreConfig(durability, bytes, fileSync);
    }

    /** The same settings, forcing through {@code sync}. */
    StateStoreConfig fileSync(final FileSync sync)
    {
        return new StateStoreConfig(durability, compactionThresholdBytes, sync);
    }

    FileSync fileSync()
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

    @Override
    public String toString()
    {
        return "StateStoreConfig{durability=" + durability + ", compactionThresholdBytes=" +
            compactionThresholdBytes + '}';
    }
}
