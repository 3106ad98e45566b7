package io.spool.perf.report;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Redraws one progress line on a terminal stream once a second while a long run goes on; runs shorter than a
 * second print nothing. The measured threads only publish a counter; reading and printing happen on this class's
 * own daemon thread. Thread-safe.
 */
public final class ProgressLine implements AutoCloseable
{
    private static final long REDRAW_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final String task;
    private final long total;
    private final LongSupplier done;
    private final PrintWriter out;
    private final Thread drawer;
    private volatile boolean running = true;
    private boolean drawn;

    private ProgressLine(final String task, final long total, final LongSupplier done, final PrintWriter out)
    {
        this.task = task;
        this.total = total;
        this.done = done;
        this.out = out;
        this.drawer = new Thread(this::drawUntilClosed, "spool-progress");
        this.drawer.setDaemon(true);
    }

    /**
     * @param task  what is progressing, for example {@code "ingest"}.
     * @param total units to do.
     * @param done  units done so far; read once a second from another thread.
     */
    public static ProgressLine start(
        final String task, final long total, final LongSupplier done, final PrintWriter out)
    {
        final ProgressLine line = new ProgressLine(task, total, done, out);
        line.drawer.start();
        return line;
    }

    /** The line shown after {@code elapsedNanos} with {@code done} of {@code total} units done. */
    public static String render(final String task, final long done, final long total, final long elapsedNanos)
    {
        final double percent = total == 0 ? 100.0 : 100.0 * done / total;
        final double perSecond = elapsedNanos == 0 ? 0 : done * 1e9 / elapsedNanos;
        return String.format(Locale.ROOT, "%s: %,d / %,d records (%.0f%%), %,.0f records/s", task, done, total,
            percent, perSecond);
    }

    @Override
    public void close()
    {
        running = false;
        LockSupport.unpark(drawer);
        try
        {
            drawer.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
        if (drawn)
        {
            out.println();
            out.flush();
        }
    }

    private void drawUntilClosed()
    {
        final long startNanos = System.nanoTime();
        long nextDrawNanos = startNanos + REDRAW_INTERVAL_NANOS;
        while (running)
        {
            final long now = System.nanoTime();
            if (now >= nextDrawNanos)
            {
                out.print('\r' + render(task, done.getAsLong(), total, now - startNanos));
                out.flush();
                drawn = true;
                nextDrawNanos += REDRAW_INTERVAL_NANOS;
            }
            LockSupport.parkNanos(this, nextDrawNanos - now);
        }
    }
}
