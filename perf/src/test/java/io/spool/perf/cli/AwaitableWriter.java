package io.spool.perf.cli;

import java.io.Writer;
import java.time.Duration;

/**
 * Collects what a command prints, and lets a test wait (with a bound) until some text has been printed, for commands
 * that run on another thread. Thread-safe.
 */
final class AwaitableWriter extends Writer
{
    private final StringBuilder text = new StringBuilder();

    @Override
    public synchronized void write(final char[] chars, final int offset, final int length)
    {
        text.append(chars, offset, length);
        notifyAll();
    }

    @Override
    public void flush()
    {
    }

    @Override
    public void close()
    {
    }

    /**
     * @return everything printed so far, once it contains {@code expected}.
     * @throws AssertionError when {@code limit} passes first.
     */
    synchronized String awaitContaining(final String expected, final Duration limit) throws InterruptedException
    {
        final long deadline = System.nanoTime() + limit.toNanos();
        while (text.indexOf(expected) < 0)
        {
            final long remainingNanos = deadline - System.nanoTime();
            if (remainingNanos <= 0)
            {
                throw new AssertionError("\"" + expected + "\" not printed within " + limit + "; printed:\n" + text);
            }
            wait(Math.max(1, remainingNanos / 1_000_000));
        }
        return text.toString();
    }

    @Override
    public synchronized String toString()
    {
        return text.toString();
    }
}
