package io.spool.log;

import com.lmax.disruptor.EventHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pipeline stage 3: tells each producer the outcome of its record. Runs after the flush stage has made the batch
 * durable and visible, so a confirmed record is always readable.
 */
final class PublishHandler implements EventHandler<AppendEvent>
{
    private static final Logger LOGGER = LoggerFactory.getLogger(PublishHandler.class);

    @Override
    public void onEvent(final AppendEvent event, final long sequence, final boolean endOfBatch)
    {
        final ConfirmListener listener = event.listener;
        try
        {
            if (listener != null && !event.aborted)
            {
                if (event.error == null)
                {
                    listener.onConfirmed(event.correlation, event.offset);
                }
                else
                {
                    listener.onFailed(event.correlation, event.error);
                }
            }
        }
        catch (final RuntimeException ex)
        {
            LOGGER.error("a confirm listener threw; other confirms go on", ex);
        }
    }
}
