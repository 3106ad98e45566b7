package io.spool.log;

/**
 * Offsets {@code [fromOffset, toOffset)} of a log that no longer hold readable records: damage in a closed segment,
 * or a segment file that went missing, found when the log was opened. The records after the hole are kept; readers
 * pass over it as a Kafka consumer passes over the offsets compaction removed: a read from an offset in the hole
 * returns the first record after it, whose offset shows what was skipped. Immutable, thread-safe.
 *
 * @param reason what made the records unreadable, as recovery first found it.
 */
public record LogHole(long fromOffset, long toOffset, String reason)
{
    /** How many offsets the hole spans. */
    public long offsets()
    {
        return toOffset - fromOffset;
    }

    @Override
    public String toString()
    {
        return "offsets " + fromOffset + ".." + (toOffset - 1) + " (" + offsets() + ") cannot be read: " + reason;
    }
}
