package io.spool.perf.bench;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * How long a cache line takes to travel from one thread's CPU to another's and back: two threads hand a counter
 * back and forth, each waiting for the other's increment. The queue bench reports it beside its ratios because they
 * move with it: on a shared virtual machine the host sometimes places the two virtual CPUs where a round trip takes
 * several times as long, and while it does, every cache line the subscription's agent and a consumer pass between
 * them costs as much more, which lowers the queue's ratios whatever the build. Not thread-safe: one measurement at a
 * time.
 */
public final class CacheLineRoundTrip
{
    /** Longs between the array's start and the counter, and after it: 128 bytes on each side. */
    private static final int PADDING = 16;
    private static final int TRIES = 5;
    private static final int ROUND_TRIPS_PER_TRY = 20_000;
    /** A try stops early after this long: two threads sharing one CPU hand the counter over once per time slice. */
    private static final long MAX_TRY_NANOS = TimeUnit.MILLISECONDS.toNanos(40);
    /** How long the counter goes back and forth untimed before the tries. */
    private static final long SETTLE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private CacheLineRoundTrip()
    {
    }

    /** The median over five tries of the time per round trip, in nanoseconds. */
    public static long medianNanos()
    {
        return medianNanos(TRIES, ROUND_TRIPS_PER_TRY, MAX_TRY_NANOS);
    }

    static long medianNanos(final int tries, final int roundTrips, final long maxTryNanos)
    {
        final AtomicLongArray line = new AtomicLongArray(2 * PADDING + 1);
        final Thread echo = new Thread(() -> echo(line), "spool-round-trip-echo");
        echo.setDaemon(true);
        echo.start();
        final long[] perRoundTrip = new long[tries];
        try
        {
            // Untimed first: a new thread starts on its starter's CPU, and the scheduler takes a while to move it;
            // threads that just finished work may still hold a CPU for a while before they park.
            oneTry(line, Integer.MAX_VALUE, Math.min(SETTLE_NANOS, maxTryNanos));
            for (int t = 0; t < tries; t++)
            {
                perRoundTrip[t] = oneTry(line, roundTrips, maxTryNanos);
            }
        }
        finally
        {
            // A negative count tells the echo thread to stop.
            line.setRelease(PADDING, -1);
            try
            {
                echo.join();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
        }
        Arrays.sort(perRoundTrip);
        return perRoundTrip[tries / 2];
    }

    /** Hands the counter over up to {@code roundTrips} times, going on from the echo's last answer. */
    private static long oneTry(final AtomicLongArray line, final int roundTrips, final long maxTryNanos)
    {
        final long start = System.nanoTime();
        long done = 0;
        long next = line.getAcquire(PADDING);
        while (done < roundTrips && System.nanoTime() - start < maxTryNanos)
        {
            line.setRelease(PADDING, next + 1);
            while (line.getAcquire(PADDING) != next + 2)
            {
                Thread.onSpinWait();
            }
            next += 2;
            done++;
        }
        return (System.nanoTime() - start) / Math.max(1, done);
    }

    /** Answers each odd count with the next even one, until told to stop. */
    private static void echo(final AtomicLongArray line)
    {
        long answered = 0;
        while (true)
        {
            final long seen = line.getAcquire(PADDING);
            if (seen < 0)
            {
                return;
            }
            if (seen == answered + 1)
            {
                answered = seen + 1;
                line.setRelease(PADDING, answered);
            }
            else
            {
                Thread.onSpinWait();
            }
        }
    }
}
