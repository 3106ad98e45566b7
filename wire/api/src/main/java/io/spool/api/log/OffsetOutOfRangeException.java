package io.spool.api.log;

import io.spool.api.SpoolException;

/**
 * A read or seek asked for an offset the log does not hold: below its start (removed by retention) or beyond its
 * end. Immutable, thread-safe.
 */
public final class OffsetOutOfRangeException extends SpoolException
{
    private static final long serialVersionUID = 1L;

    private final long requestedOffset;
    private final long earliestOffset;
    private final long endOffset;

    public OffsetOutOfRangeException(final String log, final long requestedOffset, final long earliestOffset, final long endOffset)
    {
        super("offset " + requestedOffset + " is out of range for log " + log +
            ": the earliest offset is " + earliestOffset + " and the end offset is " + endOffset);
        this.requestedOffset = requestedOffset;
        this.earliestOffset = earliestOffset;
        this.endOffset = endOffset;
    }

    public long requestedOffset()
    {
        return requestedOffset;
    }

    public long earliestOffset()
    {
        return earliestOffset;
    }

    public long endOffset()
    {
        return endOffset;
    }
}
