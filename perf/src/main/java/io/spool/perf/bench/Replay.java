package io.spool.perf.bench;

import org.HdrHistogram.AtomicHistogram;

/** A reader that reads every record of what was written, from the start, once per pass. */
public interface Replay extends AutoCloseable
{
    /**
     * @param pollNanos receives the time of every poll.
     * @return the number of records read.
     */
    long replayAll(AtomicHistogram pollNanos);

    @Override
    void close();
}
