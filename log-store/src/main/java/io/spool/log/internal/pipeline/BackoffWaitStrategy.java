package io.spool.log.internal.pipeline;

import com.lmax.disruptor.AlertException;
import com.lmax.disruptor.Sequence;
import com.lmax.disruptor.SequenceBarrier;
import com.lmax.disruptor.TimeoutException;
import com.lmax.disruptor.WaitStrategy;

import java.util.concurrent.locks.LockSupport;

/**
 * How a pipeline stage waits for work: spins briefly, yields, then parks in short and then longer naps, and
 * reports a timeout when the wait passes the idle-check interval (so the flush stage can force interval logs).
 * A stage napping for producers is woken by the next publish.
 * <p>
 * Design note: the Disruptor's blocking strategies block only while waiting on producers; a stage waiting on the
 * stage before it spins on that stage's sequence, so a pipeline would burn a core per waiting stage (a profile of
 * an every-batch run put most CPU samples in the flush and publish stages spinning through each fsync). Parking on
 * both kinds of wait keeps an idle or fsync-bound pipeline cheap on small machines, at the price of tens of
 * microseconds of latency when a stage wakes from a nap.
 * <p>
 * An idle stage reports a timeout every interval and is asked to wait again for the same sequence: it then parks
 * for the whole next interval at once, woken early by a publish, instead of spinning, yielding and napping
 * through the short naps again; and once the flush stage found no interval log owing a force
 * ({@link #forcesOwed}), for {@link #QUIET_PARK_NANOS}, since nothing but a publish brings work then. Without
 * that, the short naps after each timeout kept an idle server at several percent of a core. Thread-safe.
 */
final class BackoffWaitStrategy implements WaitStrategy
{
    private static final int SPINS = 200;
    private static final int YIELDS = 50;
    private static final long SHORT_NAP_NANOS = 20_000;
    private static final long SHORT_NAPS_FOR_NANOS = 2_000_000;
    private static final long LONG_NAP_NANOS = 500_000;

    /** How long an idle stage parks when no force is owed; a publish wakes it at once. */
    static final long QUIET_PARK_NANOS = 1_000_000_000L;

    private final long timeoutNanos;
    /** Set by the flush stage at each timeout: some interval log still holds unforced records. */
    private volatile boolean forcesOwed = true;
    /** Stage threads that have napped in this strategy; a handful per pipeline, registered once each. */
    private volatile Thread[] nappers = new Thread[0];
    private final java.util.concurrent.atomic.AtomicInteger napping = new java.util.concurrent.atomic.AtomicInteger();
    /** Per stage thread: the sequence it last timed out waiting for, so that waiting for it again is known idle. */
    private final ThreadLocal<IdleMark> idleMarks = ThreadLocal.withInitial(IdleMark::new);

    BackoffWaitStrategy(final long timeoutNanos)
    {
        this.timeoutNanos = timeoutNanos;
    }

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
        final SequenceBarrier barrier) throws AlertException, TimeoutException
    {
        long available = dependentSequence.get();
        if (available >= sequence)
        {
            return available;
        }
        final IdleMark idle = idleMarks.get();
        if (idle.isStillIdle(sequence, dependentSequence))
        {
            available = parkThroughInterval(sequence, cursor, dependentSequence, barrier, idle);
            if (available >= sequence)
            {
                return available;
            }
        }
        int tries = 0;
        long napStart = 0;
        while ((available = dependentSequence.get()) < sequence)
        {
            barrier.checkAlert();
            if (tries < SPINS)
            {
                tries++;
                Thread.onSpinWait();
            }
            else if (tries < SPINS + YIELDS)
            {
                tries++;
                Thread.yield();
            }
            else
            {
                final long now = System.nanoTime();
                if (napStart == 0)
                {
                    napStart = now;
                }
                final long waited = now - napStart;
                if (waited > timeoutNanos)
                {
                    idle.mark(sequence, dependentSequence);
                    throw TimeoutException.INSTANCE;
                }
                nap(waited < SHORT_NAPS_FOR_NANOS ? SHORT_NAP_NANOS : LONG_NAP_NANOS, cursor == dependentSequence);
            }
        }
        return available;
    }

    /**
     * The wait of a stage still idle since its last timeout: parks until the interval ends or a publish wakes it.
     *
     * @return the sequence available when it woke with work; below {@code sequence} when it woke early without,
     * and then the caller waits as after any other wake-up.
     * @throws TimeoutException when the interval passed with no work, the stage staying idle.
     */
    private long parkThroughInterval(final long sequence, final Sequence cursor, final Sequence dependentSequence,
        final SequenceBarrier barrier, final IdleMark idle) throws AlertException, TimeoutException
    {
        final long deadline = System.nanoTime() + (forcesOwed ? timeoutNanos : QUIET_PARK_NANOS);
        long available;
        register(Thread.currentThread());
        while ((available = dependentSequence.get()) < sequence)
        {
            barrier.checkAlert();
            final long remaining = deadline - System.nanoTime();
            if (remaining <= 0)
            {
                throw TimeoutException.INSTANCE;
            }
            napping.incrementAndGet();
            try
            {
                // Checked after counting itself napping: a producer that publishes from here on sees the count
                // and unparks this thread, one that published before is seen here.
                if (cursor.get() >= sequence)
                {
                    // producers published and an earlier stage is at work on it: wait for that stage as usual
                    break;
                }
                LockSupport.parkNanos(this, remaining);
            }
            finally
            {
                napping.decrementAndGet();
            }
        }
        idle.clear();
        return available;
    }

    /** The flush stage's finding at its last timeout: whether an interval log still owes a force. */
    void forcesOwed(final boolean owed)
    {
        if (forcesOwed != owed)
        {
            forcesOwed = owed;
        }
    }

    /**
     * A stage waiting for producers naps until a publish wakes it (or the nap ends); a stage waiting for the stage
     * before it is not signalled and wakes when its nap ends (a stage parked through an idle interval is signalled
     * whichever it waits for: a publish is news to every stage).
     */
    private void nap(final long nanos, final boolean waitingForProducers)
    {
        if (!waitingForProducers)
        {
            LockSupport.parkNanos(nanos);
            return;
        }
        register(Thread.currentThread());
        napping.incrementAndGet();
        try
        {
            LockSupport.parkNanos(this, nanos);
        }
        finally
        {
            napping.decrementAndGet();
        }
    }

    private synchronized void register(final Thread self)
    {
        final Thread[] current = nappers;
        for (final Thread napper : current)
        {
            if (napper == self)
            {
                return;
            }
        }
        final Thread[] next = java.util.Arrays.copyOf(current, current.length + 1);
        next[current.length] = self;
        nappers = next;
    }

    /**
     * A producer published: wake stages napping for producers, so a quiet pipeline answers at once. Runs on every
     * publish, so it allocates nothing.
     */
    @Override
    public void signalAllWhenBlocking()
    {
        if (napping.get() > 0)
        {
            final Thread[] current = nappers;
            for (int i = 0; i < current.length; i++)
            {
                LockSupport.unpark(current[i]);
            }
        }
    }

    /** The sequence a stage thread last timed out waiting for, and on which sequence. Used by its thread only. */
    private static final class IdleMark
    {
        private long sequence = -1;
        private Sequence dependentSequence;

        boolean isStillIdle(final long sequence, final Sequence dependentSequence)
        {
            return this.dependentSequence == dependentSequence && this.sequence == sequence;
        }

        void mark(final long sequence, final Sequence dependentSequence)
        {
            this.sequence = sequence;
            this.dependentSequence = dependentSequence;
        }

        void clear()
        {
            dependentSequence = null;
        }
    }
}
