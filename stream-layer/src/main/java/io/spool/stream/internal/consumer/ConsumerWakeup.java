package io.spool.stream.internal.consumer;

import io.spool.log.CommitListener;
import io.spool.log.PartitionLog;

import java.util.concurrent.locks.LockSupport;

/**
 * Lets one consumer long-poll many partitions: registered on each assigned log (and with its group), it unparks
 * the consumer's thread when any of them commits new records or the group's assignment moves. The signal is
 * sticky until the consumer clears it at the start of a poll round, so a signal that comes while the consumer is
 * still reading is not lost. It never blocks the thread that signals. Thread-safe: one consumer thread clears and
 * awaits, flush threads and the coordinator signal.
 */
final class ConsumerWakeup implements CommitListener
{
    private volatile Thread waiter;
    private volatile boolean signalled;

    @Override
    public void onCommitted(final PartitionLog log, final long endOffset)
    {
        signal();
    }

    /** Wakes the consumer, now or at its next {@link #await}; never blocks. */
    void signal()
    {
        if (!signalled)
        {
            signalled = true;
        }
        final Thread thread = waiter;
        if (thread != null)
        {
            LockSupport.unpark(thread);
        }
    }

    /** Forgets earlier signals; called before the consumer looks at its partitions and group. */
    void clear()
    {
        // A volatile store is a full fence; a poll that finds data (nothing signalled since) pays only the read.
        if (signalled)
        {
            signalled = false;
        }
    }

    /** Parks until a signal since the last {@link #clear} or {@code nanos} pass; spurious returns are fine. */
    void await(final long nanos)
    {
        waiter = Thread.currentThread();
        try
        {
            if (!signalled)
            {
                LockSupport.parkNanos(this, nanos);
            }
        }
        finally
        {
            waiter = null;
        }
    }
}
