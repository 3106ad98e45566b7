package io.spool.queue;

/**
 * How a {@link SubscriptionStateStore} keeps its files: the journal's {@link StateDurability} and the journal size
 * after which a commit compacts it into a snapshot. Immutable and thread-safe.
 */
public final class StateStoreConfig
{
    public static final long DEFAULT_COMPACTION_THRESHOLD_BYTES = 64L * 1024 * 1024;
    /** Journals are read back through one mapping, so they must stay well below 2 GiB. */
    public static final long MAX_COMPACTION_THRESHOLD_BYTES = 1L << 30;

    public static final StateStoreConfig DEFAULT =
        new StateStoreConfig(StateDurability.NONE, DEFAULT_COMPACTION_THRESHOLD_BYTES);

    private final StateDurability durability;
    private final long compactionThresholdBytes;

    private StateStoreConfig(final StateDurability durability, final long compactionThresholdBytes)
    {
        this.durability = durability;
        this.compactionThresholdBytes = compactionThresholdBytes;
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
        return new StateStoreConfig(durability, compactionThresholdBytes);
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
        return new StateStoreConfig(durability, bytes);
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
