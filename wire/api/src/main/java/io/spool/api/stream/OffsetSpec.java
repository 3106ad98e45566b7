package io.spool.api.stream;

import io.spool.api.InvalidRequestException;

import java.util.Locale;

/**
 * Where in a partition an offset reset puts a group ({@code StreamEngine.resetOffsets}): its first stored record,
 * its end, an offset (kept within the two), or the first record published at or after a time. Immutable,
 * thread-safe.
 *
 * @param kind  which of the four.
 * @param value the offset or the epoch milliseconds; 0 for the first two.
 */
public record OffsetSpec(Kind kind, long value)
{
    public enum Kind
    {
        EARLIEST, LATEST, OFFSET, TIMESTAMP
    }

    /**
     * @throws InvalidRequestException when the kind is missing or an offset or time is negative.
     */
    public OffsetSpec
    {
        if (kind == null)
        {
            throw new InvalidRequestException("an offset spec needs a kind: earliest, latest, offset or timestamp");
        }
        if (value < 0)
        {
            throw new InvalidRequestException("an offset spec's " + kind.name().toLowerCase(Locale.ROOT) +
                " must be >= 0, was " + value);
        }
    }

    public static OffsetSpec earliest()
    {
        return new OffsetSpec(Kind.EARLIEST, 0);
    }

    public static OffsetSpec latest()
    {
        return new OffsetSpec(Kind.LATEST, 0);
    }

    public static OffsetSpec offset(final long offset)
    {
        return new OffsetSpec(Kind.OFFSET, offset);
    }

    public static OffsetSpec timestamp(final long epochMillis)
    {
        return new OffsetSpec(Kind.TIMESTAMP, epochMillis);
    }
}
