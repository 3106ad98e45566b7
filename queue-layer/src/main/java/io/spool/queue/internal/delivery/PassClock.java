package io.spool.queue.internal.delivery;

import io.spool.queue.Subscription;

import org.agrona.concurrent.EpochClock;

/**
 * The engine's clock as a subscription's agent sees it: read at the start of each pass, and again as each call into
 * the agent is taken, and the same for every message the pass touches after that. A pass takes microseconds to a
 * few milliseconds, so a lock or delay decided in it is off by at most that, while a clock read per acquire, ack and
 * timer check would cost more than the rest of an ack. A call sent after an injected clock moved is answered on the
 * new time ({@link Subscription#sync()} included), even by a pass that first read the clock before it moved. Not
 * thread-safe: updated and read on the agent thread (and before the
 * agent starts, on the thread that builds the subscription).
 */
public final class PassClock implements EpochClock
{
    private final EpochClock clock;
    private long now;

    public PassClock(final EpochClock clock)
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
