package io.spool.log.internal.pipeline;

import io.spool.log.ConfirmListener;
import com.lmax.disruptor.EventHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pipeline stage 3: tells each producer the outcome of each of its records. Runs after the flush stage has made the batch
 * durable and visible, so a confirmed record is always readable.
 */
final class PublishHandler implements EventHandler<AppendEvent>
{
    private static final Logger LOGGER = LoggerFactory.getLogger(PublishHandler.class);

    @Override
    public void onEvent(final AppendEvent event, final long sequence, final boolean endOfBatch)
    {
        final ConfirmListener listener = event.listener;
        if (listener == null || event.aborted)
        {
            return;
        }
        final int confirmed = event.duplicate ? event.records : event.appendedRecords;
        for (int i = 0; i < event.records; i++)
        {
            try
            {
                if (i < confirmed)
                {
                    listener.onConfirmed(event.correlation + i, event.offset + i);
                }
                else
                {
                    listener.onFailed(event.correlation + i, event.error);
                }
            }
            catch (final RuntimeException ex)
            {
                LOGGER.error("a confirm listener threw; other confirms go on", ex);
            }
        }
    }
}
