package io.spool.log;

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
 * microseconds of latency when a stage wakes from a nap. Thread-safe.
 */
final class BackoffWaitStrategy implements WaitStrategy
{
    private static final int SPINS = 200;
    private static final int YIELDS = 50;
    private static final long SHORT_NAP_NANOS = 20_000;
    private static final long SHORT_NAPS_FOR_NANOS = 2_000_000;
    private static final long LONG_NAP_NANOS = 500_000;

    private final long timeoutNanos;
    /** Stage threads that have napped in this strategy; a handful per pipeline, registered once each. */
    private volatile Thread[] nappers = new Thread[0];
    private final java.util.concurrent.atomic.AtomicInteger napping = new java.util.concurrent.atomic.AtomicInteger();

    BackoffWaitStrategy(final long timeoutNanos)
    {
        this.timeoutNanos = timeoutNanos;
    }

    @Override
    public long waitFor(final long sequence, final Sequence cursor, final Sequence dependentSequence,
        final SequenceBarrier barrier) throws AlertException, TimeoutException
    {
        long available;
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
                    throw TimeoutException.INSTANCE;
                }
                nap(waited < SHORT_NAPS_FOR_NANOS ? SHORT_NAP_NANOS : LONG_NAP_NANOS, cursor == dependentSequence);
            }
        }
        return available;
    }

    /**
     * A stage waiting for producers naps until a publish wakes it (or the nap ends); a stage waiting for the stage
     * before it is not signalled and wakes when its nap ends.
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
}
