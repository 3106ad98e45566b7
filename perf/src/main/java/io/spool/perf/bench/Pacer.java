package io.spool.perf.bench;

import java.util.concurrent.locks.LockSupport;

/**
 * Paces a sender to a target rate: message {@code i} is due {@code i / rate} seconds after the start, and
 * {@link #awaitDue} parks until then, with no busy loop and no allocation. Above a few tens of thousands of messages
 * a second a park overshoots the gap between two messages, so they go out in small bursts of those already due,
 * keeping the rate over any second. Unpaced, every message is due at once. Not thread-safe: one sender.
 */
public final class Pacer
{
    private final double nanosPerMessage;
    private final long startNanos;

    /**
     * @param messagesPerSecond the target rate; 0 for as fast as the sender goes.
     * @throws IllegalArgumentException for a negative rate.
     */
    public Pacer(final double messagesPerSecond, final long startNanos)
    {
        if (messagesPerSecond < 0 || Double.isNaN(messagesPerSecond))
        {
            throw new IllegalArgumentException("a rate must be >= 0 messages/s (0 for no limit), was " +
                messagesPerSecond);
        }
        this.nanosPerMessage = messagesPerSecond == 0 ? 0 : 1e9 / messagesPerSecond;
        this.startNanos = startNanos;
    }

    public boolean paced()
    {
        return nanosPerMessage > 0;
    }

    /** When message {@code index} is due, by {@link System#nanoTime()}. */
    public long dueNanos(final long index)
    {
        return startNanos + (long)(index * nanosPerMessage);
    }

    /**
     * Parks until message {@code index} is due.
     *
     * @return when it was due: the time a latency of the paced message counts from, so that a sender held up
     * behind schedule does not hide the wait (coordinated omission); unpaced, the time now.
     */
    public long awaitDue(final long index)
    {
        if (!paced())
        {
            return System.nanoTime();
        }
        final long due = dueNanos(index);
        long wait;
        while ((wait = due - System.nanoTime()) > 0)
        {
            LockSupport.parkNanos(this, wait);
        }
        return due;
    }
}
