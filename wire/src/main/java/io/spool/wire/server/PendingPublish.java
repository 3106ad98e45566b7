package io.spool.wire.server;

import io.spool.log.SpoolException;

/**
 * One PUBLISH frame waiting for the confirms of its records: their offsets in request order, or the error that
 * stopped it. Reused after its response is written. Not thread-safe: owned by the connection's event loop.
 */
final class PendingPublish
{
    long correlationId;
    int expected;
    int confirmed;
    long[] offsets = new long[16];
    RuntimeException error;

    void reset(final long correlationId, final int recordCount)
    {
        this.correlationId = correlationId;
        this.expected = recordCount;
        this.confirmed = 0;
        this.error = null;
        if (offsets.length < recordCount)
        {
            offsets = new long[Math.max(recordCount, offsets.length * 2)];
        }
    }

    boolean isComplete()
    {
        return confirmed >= expected;
    }

    void fail(final SpoolException failure)
    {
        if (error == null)
        {
            error = failure;
        }
    }
}
