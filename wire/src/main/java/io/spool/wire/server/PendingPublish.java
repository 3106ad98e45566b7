package io.spool.wire.server;

import io.spool.api.SpoolException;
import io.spool.log.ConfirmListener;

/**
 * One PUBLISH frame waiting for the confirms of its records: their offsets in request order, or the error that
 * stopped it. It is the confirm listener of its own records, whose correlation is their index in the frame, so a
 * confirm is one array store on the pipeline thread; the frame's last record (confirmed or failed last, as the
 * pipeline tells a log's outcomes in offset order) hands the whole frame to the connection.
 * <p>
 * Thread-safety: the connection's event loop fills it in before the records go to the pipeline, which publishes
 * it to the pipeline thread; that thread alone writes the offsets and the error, and the hand-over publishes them
 * back to the event loop, which reads them, answers and reuses the object.
 */
final class PendingPublish implements ConfirmListener
{
    /** Takes a frame whose every record has its outcome; called on the pipeline thread. */
    interface Completion
    {
        void completed(PendingPublish publish);
    }

    private final Completion completion;
    long correlationId;
    int expected;
    long[] offsets = new long[16];
    SpoolException error;
    /** The next frame in the connection's list of completed frames. */
    PendingPublish next;

    PendingPublish(final Completion completion)
    {
        this.completion = completion;
    }

    /** Event loop, before the frame's records are published. */
    void reset(final long correlationId, final int recordCount)
    {
        this.correlationId = correlationId;
        this.expected = recordCount;
        this.error = null;
        if (offsets.length < recordCount)
        {
            offsets = new long[Math.max(recordCount, offsets.length * 2)];
        }
    }

    @Override
    public void onConfirmed(final long correlation, final long offset)
    {
        offsets[(int)correlation] = offset;
        if (correlation == expected - 1)
        {
            completion.completed(this);
        }
    }

    @Override
    public void onFailed(final long correlation, final SpoolException failure)
    {
        if (error == null)
        {
            error = failure;
        }
        if (correlation == expected - 1)
        {
            completion.completed(this);
        }
    }
}
