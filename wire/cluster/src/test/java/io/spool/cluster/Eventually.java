package io.spool.cluster;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waits for a condition another process or thread brings about (a follower applying, a node catching up), looking
 * every 10 ms, and fails with {@code why} if it does not hold within the bound.
 */
final class Eventually
{
    private static final long POLL_NANOS = 10_000_000;

    private Eventually()
    {
    }

    static void holds(final BooleanSupplier condition, final Duration within, final Supplier<String> why)
    {
        final long deadline = System.nanoTime() + within.toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError(why.get() + " within " + within);
            }
            LockSupport.parkNanos(POLL_NANOS);
        }
    }
}
