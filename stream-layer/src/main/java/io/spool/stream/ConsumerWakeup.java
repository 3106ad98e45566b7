package io.spool.stream;

import io.spool.log.CommitListener;
import io.spool.log.PartitionLog;

import java.util.concurrent.locks.LockSupport;

/**
 * Lets one consumer long-poll many partitions: registered on each assigned log, it unparks the consumer's thread
 * when any of them commits new records. It never blocks the pipeline's flush thread. Thread-safe: one consumer
 * thread arms it, flush threads signal it.
 */
final class ConsumerWakeup implements CommitListener
{
    private volatile Thread waiter;
    private volatile boolean signalled;

    @Override
    public void onCommitted(final PartitionLog log, final long endOffset)
    {
        final Thread thread = waiter;
        if (thread != null)
        {
            signalled = true;
            LockSupport.unpark(thread);
        }
    }

    /** Call before the last check for data, so a commit between that check and the park is not missed. */
    void arm()
    {
        signalled = false;
        waiter = Thread.currentThread();
    }

    /** Parks until signalled or {@code nanos} pass; spurious returns are fine because the caller re-checks. */
    void await(final long nanos)
    {
        if (!signalled)
        {
            LockSupport.parkNanos(this, nanos);
        }
    }

    void disarm()
    {
        waiter = null;
    }
}
