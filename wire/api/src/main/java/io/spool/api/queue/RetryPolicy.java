package io.spool.api.queue;

import java.util.Arrays;

/**
 * A ladder of redelivery delays: the n-th nack of a message waits the n-th delay, and the nack after the last rung
 * dead-letters it (reason {@code delivery_limit}). Immutable and thread-safe.
 */
public final class RetryPolicy
{
    /** No ladder: a nack makes the message available again at once. */
    public static final RetryPolicy NONE = new RetryPolicy(new long[0]);
    public static final int MAX_RUNGS = 64;
    /** Longest delay a nack, a rung of the ladder or a message's deliver-at header can ask for: 30 days. */
    public static final long MAX_DELAY_MILLIS = 30L * 24 * 60 * 60 * 1000;

    private final long[] delaysMillis;

    private RetryPolicy(final long[] delaysMillis)
    {
        this.delaysMillis = delaysMillis;
    }

    /**
     * @throws InvalidSettingsException if there are no delays, more than {@link #MAX_RUNGS}, or one is not between
     *                                  1 ms and {@link #MAX_DELAY_MILLIS}.
     */
    public static RetryPolicy ladder(final long... delaysMillis)
    {
        if (delaysMillis == null || delaysMillis.length == 0 || delaysMillis.length > MAX_RUNGS)
        {
            throw new InvalidSettingsException("a retry ladder needs 1 to " + MAX_RUNGS + " delays, was " +
                (delaysMillis == null ? "null" : delaysMillis.length + " delays"));
        }
        for (final long delay : delaysMillis)
        {
            if (delay < 1 || delay > MAX_DELAY_MILLIS)
            {
                throw new InvalidSettingsException("every retry delay must be between 1 ms and " +
                    MAX_DELAY_MILLIS + " ms, was " + delay + " ms");
            }
        }
        return new RetryPolicy(delaysMillis.clone());
    }

    public boolean isLadder()
    {
        return delaysMillis.length > 0;
    }

    public int rungs()
    {
        return delaysMillis.length;
    }

    /** The delay after the {@code failures}-th failed delivery (1-based), or -1 when the ladder is exhausted. */
    public long delayAfter(final int failures)
    {
        return failures >= 1 && failures <= delaysMillis.length ? delaysMillis[failures - 1] : -1;
    }

    /** The delays in milliseconds, comma-separated ("-" for none), as the catalog stores them. */
    public String format()
    {
        if (!isLadder())
        {
            return "-";
        }
        final StringBuilder text = new StringBuilder();
        for (final long delay : delaysMillis)
        {
            text.append(text.length() == 0 ? "" : ",").append(delay);
        }
        return text.toString();
    }

    public static RetryPolicy parse(final String text)
    {
        if (text == null || text.equals("-"))
        {
            return NONE;
        }
        return ladder(Arrays.stream(text.split(",")).mapToLong(Long::parseLong).toArray());
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof RetryPolicy && Arrays.equals(delaysMillis, ((RetryPolicy)other).delaysMillis);
    }

    @Override
    public int hashCode()
    {
        return Arrays.hashCode(delaysMillis);
    }

    @Override
    public String toString()
    {
        return "RetryPolicy" + Arrays.toString(delaysMillis);
    }
}
