package io.spool.log.internal.pipeline;

import com.lmax.disruptor.EventHandler;
import io.spool.api.EngineClosedException;
import io.spool.api.SpoolException;
import org.agrona.concurrent.EpochClock;

import java.io.UncheckedIOException;

/**
 * Pipeline stage 1: copies each slot's framed records into its log's active segment and gives them their offsets.
 * The clock is read once per batch, for the segments' age rolls and the dedup window; the producers stamped the
 * records' append times when they framed them.
 */
final class AppendHandler implements EventHandler<AppendEvent>
{
    private final EpochClock clock;
    private long batchMillis;

    AppendHandler(final EpochClock clock)
    {
        this.clock = clock;
    }

    @Override
    public void onBatchStart(final long batchSize, final long queueDepth)
    {
        batchMillis = clock.time();
    }

    @Override
    public void onEvent(final AppendEvent event, final long sequence, final boolean endOfBatch)
    {
        if (event.aborted)
        {
            return;
        }
        final PartitionWriter log = event.log;
        if (log.isClosed())
        {
            event.error = new EngineClosedException("log " + log.name());
            return;
        }
        try
        {
            log.appender.append(event, batchMillis);
        }
        catch (final SpoolException ex)
        {
            event.error = ex;
        }
        catch (final UncheckedIOException ex)
        {
            event.error = new SpoolException("append to log " + log.name() + " failed: " + ex.getMessage(), ex);
        }
    }
}
