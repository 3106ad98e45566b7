package io.spool.queue.internal.delivery;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * How long a queue thread that just ran out of work keeps looking for more before it parks. The agent and a push
 * consumer feed each other: a consumer that drained its deliveries waits for the agent's next hand-off, and the
 * agent waits for the consumer's acks to free credit. Parking at the first empty look made nearly every exchange pay
 * a futex wake-up and the rescheduling of a halted virtual CPU, far longer than the work the other side did
 * meanwhile, so the two threads ran one after the other.
 * <p>
 * So a thread that did work looks again, yielding its CPU between looks, for up to {@link #LOOK_NANOS}. Yielding
 * rather than spinning lets a runnable thread on the same CPU go first, which matters once there are more consumers
 * than cores. The price is CPU after each burst of work: a thread holds its core for up to {@link #LOOK_NANOS}
 * before it parks when nothing else wants it. A thread that parked and woke to find nothing does not look again
 * before its next park: an idle subscription costs no CPU beyond its timed wake-ups. Time here is the machine's,
 * never the subscription's injected clock: it bounds how long a thread holds a CPU, and a frozen test clock must
 * not hold it forever.
 * Not thread-safe: one per thread.
 */
public final class LookBeforePark
{
    /**
     * Long enough that a thread between two exchanges yields rather than sleeps. Design note: a wake-up is where the
     * scheduler places a thread, and the scheduler tends to put a woken thread on its waker's CPU, where the two then
     * take turns; a thread that yields instead of parking is not woken, so it stays on a CPU of its own. Much longer
     * looks hold CPUs that other consumers need, and spinning instead of yielding starves the other threads when busy
     * threads outnumber cores.
     */
    static final long LOOK_NANOS = TimeUnit.MICROSECONDS.toNanos(500);
    private static final long NOT_IDLE = Long.MIN_VALUE;

    private final LongSupplier nanoTime;
    private boolean armed;
    private long idleSince = NOT_IDLE;

    public LookBeforePark()
    {
        this(System::nanoTime);
    }

    LookBeforePark(final LongSupplier nanoTime)
    {
        this.nanoTime = nanoTime;
    }

    /** The thread did work: when it next runs out, it looks again for a while before parking. */
    public void workDone()
    {
        armed = true;
        idleSince = NOT_IDLE;
    }

    /**
     * The thread found no work. Yields the CPU and returns true while the thread should look again; returns false,
     * once its time is up or when it did no work since its last park, and the thread should park.
     */
    public boolean lookAgain()
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
