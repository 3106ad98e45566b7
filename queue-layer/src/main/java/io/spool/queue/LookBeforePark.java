package io.spool.queue;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * How long a queue thread that just ran out of work keeps looking for more before it parks. The agent and a push
 * consumer feed each other: a consumer that drained its deliveries waits for the agent's next hand-off, and the
 * agent waits for the consumer's acks to free credit. Parking at the first empty look made nearly every exchange pay
 * a futex wake-up and the rescheduling of a halted virtual CPU: over a 500,000-message drain at prefetch 1,000 each
 * thread parked some 400 times for 75 microseconds on average, 30 of the drain's 40 milliseconds, while the work
 * that the other side did meanwhile took a few microseconds. The two threads ran one after the other.
 * <p>
 * So a thread that did work looks again, yielding its CPU between looks, for up to {@link #LOOK_NANOS}. Yielding
 * rather than spinning lets a runnable thread on the same CPU go first, which matters once there are more consumers
 * than cores. A thread that parked and woke to find nothing does not look again before its next park: an idle
 * subscription costs no CPU beyond its timed wake-ups. Time here is the machine's, never the subscription's injected
 * clock: it bounds how long a thread holds a CPU, and a frozen test clock must not hold it forever.
 * Not thread-safe: one per thread.
 */
final class LookBeforePark
{
    /**
     * About what a park costs here. On the queue bench, yielding for 50 and for 150 microseconds did alike; spinning
     * instead of yielding (for 20, 50 or 150) did better with one consumer in some runs, but four consumers on two
     * cores fell to 0.03 to 0.06 of the stream poll in about half the runs (0.14 to 0.28 yielding), the spinning
     * threads holding the CPUs that the others needed.
     */
    static final long LOOK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final long NOT_IDLE = Long.MIN_VALUE;

    private final LongSupplier nanoTime;
    private boolean armed;
    private long idleSince = NOT_IDLE;

    LookBeforePark()
    {
        this(System::nanoTime);
    }

    LookBeforePark(final LongSupplier nanoTime)
    {
        this.nanoTime = nanoTime;
    }

    /** The thread did work: when it next runs out, it looks again for a while before parking. */
    void workDone()
    {
        armed = true;
        idleSince = NOT_IDLE;
    }

    /**
     * The thread found no work. Yields the CPU and returns true while the thread should look again; returns false,
     * once its time is up or when it did no work since its last park, and the thread should park.
     */
    boolean lookAgain()
    {
        if (!armed)
        {
            return false;
        }
        final long now = nanoTime.getAsLong();
        if (idleSince == NOT_IDLE)
        {
            idleSince = now;
        }
        if (now - idleSince >= LOOK_NANOS)
        {
            armed = false;
            return false;
        }
        Thread.yield();
        return true;
    }
}
