package io.spool.perf.lab;

import io.spool.queue.Subscription;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * A consumer that long-polls a subscription in a loop on its own thread. A long poll blocks its caller until a
 * message arrives or the engine's clock passes its wait, so the lab moves the clock only while this thread is parked
 * inside a receive: each wait then starts at a known virtual time, whatever the machine's load.
 * <p>
 * Thread-safe: the lab's thread drives it while its own thread polls.
 */
final class LongPoller implements AutoCloseable
{
    private static final long TIMEOUT_SECONDS = 30;

    private final AtomicInteger started = new AtomicInteger();
    private final AtomicInteger returned = new AtomicInteger();
    private final AtomicInteger lastCall = new AtomicInteger(Integer.MAX_VALUE);
    private final Thread thread;
    /** The call the lab last saw waiting; only the lab's thread reads and writes it. */
    private int waitingCall;

    /** Starts polling and returns once the first receive waits. */
    LongPoller(final Subscription subscription, final long waitMillis)
    {
        thread = new Thread(() ->
        {
            while (started.get() < lastCall.get())
            {
                started.incrementAndGet();
                subscription.receive(10, waitMillis);
                returned.incrementAndGet();
            }
        }, "lab-long-poller");
        thread.start();
        awaitParkedIn(1);
    }

    /** The receive calls made so far, counting the one waiting now. */
    int calls()
    {
        return started.get();
    }

    /** After the lab moved the clock past the current wait: returns once that call ended and the next one waits. */
    void awaitNextCall()
    {
        final int call = waitingCall;
        awaitUntil(() -> returned.get() >= call, "receive call " + call + " to return");
        awaitParkedIn(call + 1);
    }

    /** The call waiting now is the last; the lab then moves the clock past its wait and closes the poller. */
    void stopAfterCurrentCall()
    {
        lastCall.set(waitingCall);
    }

    @Override
    public void close()
    {
        try
        {
            thread.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the long poller finished", ex);
        }
        if (thread.isAlive())
        {
            throw new IllegalStateException("the long poller did not finish within " + TIMEOUT_SECONDS + " s");
        }
    }

    /** The poller parks only inside receive, so once it started call {@code call} and parked, its wait began. */
    private void awaitParkedIn(final int call)
    {
        awaitUntil(() -> started.get() == call && thread.getState() == Thread.State.TIMED_WAITING,
            "receive call " + call + " to wait");
        waitingCall = call;
    }

    private static void awaitUntil(final BooleanSupplier condition, final String what)
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                throw new IllegalStateException("waited " + TIMEOUT_SECONDS + " s for " + what);
            }
            Thread.onSpinWait();
        }
    }
}
