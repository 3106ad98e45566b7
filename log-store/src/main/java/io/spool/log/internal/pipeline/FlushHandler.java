package io.spool.log.internal.pipeline;

import com.lmax.disruptor.EventHandler;
import org.agrona.concurrent.EpochClock;

import java.util.Arrays;

/**
 * Pipeline stage 2: at the end of each batch forces every log the batch touched (by its durability policy) and
 * publishes their committed ends, so one fsync covers every record of the batch. When the ring is idle, forces
 * interval-durability logs whose interval has passed.
 */
final class FlushHandler implements EventHandler<AppendEvent>
{
    private final EpochClock clock;
    private final IngestPipeline pipeline;
    private PartitionWriter[] dirty = new PartitionWriter[16];
    private int dirtyCount;
    private volatile long forces;

    FlushHandler(final EpochClock clock, final IngestPipeline pipeline)
    {
        this.clock = clock;
        this.pipeline = pipeline;
    }

    @Override
    public void onEvent(final AppendEvent event, final long sequence, final boolean endOfBatch)
    {
        if (event.appendedRecords > 0 && !event.aborted)
        {
            final PartitionWriter log = event.log;
            final LogFlusher flusher = log.flusher;
            if (event.rolled)
            {
                flusher.noteAppended(event.rolledSegment, event.rolledEndPosition, event.rolledEndOffset);
            }
            flusher.noteAppended(event.segment, event.endPosition, event.offset + event.appendedRecords);
            if (!flusher.dirtyInBatch)
            {
                flusher.dirtyInBatch = true;
                if (dirtyCount == dirty.length)
                {
                    dirty = Arrays.copyOf(dirty, dirtyCount * 2);
                }
                dirty[dirtyCount++] = log;
            }
        }
        if (endOfBatch)
        {
            completeBatch();
        }
    }

    private void completeBatch()
    {
        if (dirtyCount == 0)
        {
            return;
        }
        final long now = clock.time();
        long done = 0;
        for (int i = 0; i < dirtyCount; i++)
        {
            try
            {
                done += dirty[i].flusher.completeBatch(now);
            }
            finally
            {
                dirty[i] = null;
            }
        }
        dirtyCount = 0;
        addForces(done);
    }

    @Override
    public void onTimeout(final long sequence)
    {
        final long now = clock.time();
        long done = 0;
        boolean forcesOwed = false;
        for (final PartitionWriter log : pipeline.logs())
        {
            if (!log.isClosed())
            {
                done += log.flusher.forceIfDue(now);
                forcesOwed |= log.flusher.awaitsIntervalForce();
            }
        }
        addForces(done);
        pipeline.waitStrategy().forcesOwed(forcesOwed);
    }

    private void addForces(final long done)
    {
        if (done > 0)
        {
            forces = forces + done;
        }
    }

    /** How many times this stage forced a segment to disk. */
    long forces()
    {
        return forces;
    }
}
