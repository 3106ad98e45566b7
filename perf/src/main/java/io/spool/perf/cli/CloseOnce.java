package io.spool.perf.cli;

import io.spool.wire.server.SpoolServer;

import java.util.List;

/**
 * Closes what a {@code spool server} serves, on the first call: the metrics endpoint's health turns 503, then each
 * of the rest closes in order, then the endpoint itself. Later calls return once all is closed. Thread-safe.
 */
final class CloseOnce implements Runnable
{
    private final MetricsEndpoint metrics;
    private final List<Runnable> inOrder;
    private boolean closed;

    /**
     * @param metrics the metrics endpoint, or null when none is served.
     * @param inOrder what to close between the endpoint's turning unhealthy and its closing.
     */
    CloseOnce(final MetricsEndpoint metrics, final List<Runnable> inOrder)
    {
        this.metrics = metrics;
        this.inOrder = List.copyOf(inOrder);
    }

    @Override
    public synchronized void run()
    {
        if (!closed)
        {
            closed = true;
            if (metrics != null)
            {
                metrics.closing();
            }
            inOrder.forEach(Runnable::run);
            if (metrics != null)
            {
                metrics.close();
            }
        }
    }

    /**
     * Waits until {@code server} closes or this thread is interrupted, then closes everything. Ctrl-C and kill end
     * the JVM through its shutdown hooks, not through the waiting thread; the hook and that thread both close, the
     * first does it and the second waits until it is done. An interrupt is kept aside until all is closed (a file
     * channel closed on an interrupted thread fails), then set again.
     */
    void closeWhenDone(final SpoolServer server)
    {
        final Thread closeOnShutdown = new Thread(this, "spool-server-shutdown");
        Runtime.getRuntime().addShutdownHook(closeOnShutdown);
        boolean interrupted = false;
        try
        {
            server.awaitClose();
        }
        catch (final InterruptedException ex)
        {
            interrupted = true;
        }
        finally
        {
            run();
            removeHook(closeOnShutdown);
        }
        if (interrupted)
        {
            Thread.currentThread().interrupt();
        }
    }

    private static void removeHook(final Thread hook)
    {
        try
        {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (final IllegalStateException shuttingDown)
        {
            // the hook is running or has run: the JVM is on its way out and everything is closed by it
        }
    }
}
