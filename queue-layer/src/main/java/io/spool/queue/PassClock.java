package io.spool.queue;

import org.agrona.concurrent.EpochClock;

/**
 * The engine's clock as a subscription's agent sees it: read once at the start of each pass and the same for every
 * message the pass touches. A pass takes microseconds to a few milliseconds, so a lock or delay decided in it is off
 * by at most that, while a clock read per acquire, ack and timer check would cost more than the rest of an ack.
 * Tests that move an injected clock see the new time from the next pass on, which is when {@link Subscription#sync()}
 * and every call into the agent are answered. Not thread-safe: updated and read on the agent thread (and before the
 * agent starts, on the thread that builds the subscription).
 */
final class PassClock implements EpochClock
{
    private final EpochClock clock;
    private long now;

    PassClock(final EpochClock clock)
    {
        this.clock = clock;
        this.now = clock.time();
    }

    /** Reads the engine's clock; every {@link #time()} until the next update returns this reading. */
    long update()
    {
        now = clock.time();
        return now;
    }

    @Override
    public long time()
    {
        return now;
    }
}
