package io.spool.perf.report;

import java.io.PrintWriter;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongFunction;

/**
 * Prints one line every interval while a long run goes on, for logs as well as terminals (each on its own line, as
 * Kafka's perf tools and {@code nats bench} print): the line is made from the nanoseconds since the start by a
 * function that reads the run's counters. Runs on its own daemon thread; the measured threads only keep their
 * counters. Thread-safe.
 */
public final class PeriodicLine implements AutoCloseable
{
    private final long intervalNanos;
    private final LongFunction<String> line;
    private final PrintWriter out;
    private final Thread printer;
    private volatile boolean running = true;

    private PeriodicLine(final long intervalNanos, final LongFunction<String> line, final PrintWriter out)
    {
        this.intervalNanos = intervalNanos;
        this.line = line;
        this.out = out;
        this.printer = new Thread(this::printUntilClosed, "spool-progress");
        this.printer.setDaemon(true);
    }

    /**
     * @param line the line to print, given the nanoseconds since the start; called on the printing thread.
     */
    public static PeriodicLine start(final long intervalNanos, final LongFunction<String> line, final PrintWriter out)
    {
        if (intervalNanos <= 0)
        {
            throw new IllegalArgumentException("a progress interval must be positive, was " + intervalNanos + " ns");
        }
        final PeriodicLine periodic = new PeriodicLine(intervalNanos, line, out);
        periodic.printer.start();
        return periodic;
    }

    @Override
    public void close()
    {
        running = false;
        LockSupport.unpark(printer);
        try
        {
            printer.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    private void printUntilClosed()
    {
        final long start = System.nanoTime();
        long next = start + intervalNanos;
        while (running)
        {
            final long now = System.nanoTime();
            if (now >= next)
            {
                out.println(line.apply(now - start));
                out.flush();
                next += intervalNanos;
            }
            else
            {
                LockSupport.parkNanos(this, next - now);
            }
        }
    }
}
