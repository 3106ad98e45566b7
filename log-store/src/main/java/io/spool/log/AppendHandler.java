package io.spool.log;

import com.lmax.disruptor.EventHandler;
import org.agrona.concurrent.EpochClock;

import java.io.UncheckedIOException;

/**
 * Pipeline stage 1: frames each event's record into its log's active segment. The clock is read once per batch:
 * records without a timestamp of their own, and every record of a log that keeps append times, get the batch's
 * append time.
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
        final PartitionLog log = event.log;
        if (log.isClosedForWriter())
        {
            event.error = new EngineClosedException("log " + log.name());
            return;
        }
        try
        {
            final LogAppender appender = log.appender;
            event.offset = appender.append(
                event.timestamp < 0 || log.config().logAppendTime() ? batchMillis : event.timestamp, event.attributes,
                event.keyLength, event.headersLength, event.valueLength, event.payload, 0, batchMillis);
            if (appender.lastWasDuplicate())
            {
                event.duplicate = true;
                return;
            }
            event.appendedTo(appender.activeSegment(), appender.writePosition());
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
