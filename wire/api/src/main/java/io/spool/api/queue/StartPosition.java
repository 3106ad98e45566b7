package io.spool.api.queue;

/**
 * Where a new subscription starts reading its partitions. Immutable and thread-safe.
 */
public final class StartPosition
{
    /** How the start is chosen. */
    public enum Kind
    {
        EARLIEST,
        LATEST,
        OFFSET,
        TIMESTAMP
    }

    private static final StartPosition EARLIEST = new StartPosition(Kind.EARLIEST, 0);
    private static final StartPosition LATEST = new StartPosition(Kind.LATEST, 0);

    private final Kind kind;
    private final long value;

    private StartPosition(final Kind kind, final long value)
    {
        this.kind = kind;
        this.value = value;
    }

    /** The first offset still in the log. */
    public static StartPosition earliest()
    {
        return EARLIEST;
    }

    /** The end of the log when the subscription is created: only messages published later. */
    public static StartPosition latest()
    {
        return LATEST;
    }

    /**
     * @throws InvalidSettingsException if the offset is negative.
     */
    public static StartPosition offset(final long offset)
    {
        if (offset < 0)
        {
            throw new InvalidSettingsException("start offset must be >= 0, was " + offset);
        }
        return new StartPosition(Kind.OFFSET, offset);
    }

    /**
     * The first message whose timestamp is at or after the given epoch milliseconds.
     *
     * @throws InvalidSettingsException if the timestamp is negative.
     */
    public static StartPosition timestamp(final long epochMillis)
    {
        if (epochMillis < 0)
        {
            throw new InvalidSettingsException("start timestamp must be >= 0 epoch millis, was " + epochMillis);
        }
        return new StartPosition(Kind.TIMESTAMP, epochMillis);
    }

    public Kind kind()
    {
        return kind;
    }

    /** The offset for {@link Kind#OFFSET}, the epoch milliseconds for {@link Kind#TIMESTAMP}, else 0. */
    public long value()
    {
        return value;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof StartPosition && ((StartPosition)other).kind == kind &&
            ((StartPosition)other).value == value;
    }

    @Override
    public int hashCode()
    {
        return kind.hashCode() * 31 + Long.hashCode(value);
    }

    @Override
    public String toString()
    {
        return kind == Kind.EARLIEST || kind == Kind.LATEST ? kind.name().toLowerCase() :
            kind.name().toLowerCase() + ":" + value;
    }
}
