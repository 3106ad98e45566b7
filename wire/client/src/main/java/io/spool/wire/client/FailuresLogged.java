package io.spool.wire.client;

import io.spool.api.SpoolException;
import io.spool.api.stream.PublishListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listener of a producer made without one: confirms need no action (the futures carry them), and a failed send
 * that had no future is logged, so that it is never lost without a word.
 */
final class FailuresLogged implements PublishListener
{
    static final FailuresLogged INSTANCE = new FailuresLogged();

    private static final Logger LOGGER = LoggerFactory.getLogger(RemoteProducer.class);

    private FailuresLogged()
    {
    }

    @Override
    public void onPublished(final long correlation, final String topic, final int partition, final long offset)
    {
    }

    @Override
    public void onFailed(final long correlation, final String topic, final int partition, final SpoolException error)
    {
        LOGGER.warn("a record sent with correlation {} to {}-{} was not stored: {}", correlation, topic, partition,
            error.getMessage());
    }
}
