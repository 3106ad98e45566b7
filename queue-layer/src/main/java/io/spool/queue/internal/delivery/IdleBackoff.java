package io.spool.queue.internal.delivery;

import java.util.concurrent.TimeUnit;

/**
 * How long a queue thread with nothing to do parks: {@link #FIRST_PARK_NANOS} after it last did work, twice as long
 * after each park that brought none, up to {@link #MAX_PARK_NANOS}. A thread is unparked at once by whoever hands
 * it work (a publish, a request, an ack), so the timed wake-ups only find deadlines that came due (locks, delays,
 * expiries); an idle subscription notices those at most {@link #MAX_PARK_NANOS} late. Parking 1 ms every time
 * kept an idle server at several percent of a core in wake-ups alone. Time here is the machine's, never the
 * subscription's injected clock. Not thread-safe: one per thread.
 */
public final class IdleBackoff
{
    static final long FIRST_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private long nextParkNanos = FIRST_PARK_NANOS;

    /** The thread did work: its next park is short again. */
    public void workDone()
    {
        nextParkNanos = FIRST_PARK_NANOS;
    }

    /** How long to park now; each call without {@link #workDone()} between doubles the next, up to the maximum. */
    public long parkNanos()
    {
        final long park = nextParkNanos;
        nextParkNanos = Math.min(park * 2, MAX_PARK_NANOS);
        return park;
    }
}
