package io.spool.api.stream;

import io.spool.api.SpoolException;

/**
 * Told where each record of a {@code StreamProducer} landed, on the log pipeline's publish thread, in offset
 * order per partition. Must not block: it delays every other confirm of that pipeline. Implementations must be
 * safe to call from the pipeline thread while the producing thread carries on.
 */
public interface PublishListener
{
    /** The record is stored under the topic's durability policy and readable at {@code offset}. */
    void onPublished(long correlation, String topic, int partition, long offset);

    /** The record was not stored; nothing of it is visible to readers. */
    void onFailed(long correlation, String topic, int partition, SpoolException error);
}
