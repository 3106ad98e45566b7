package io.spool.log;

import io.spool.api.SpoolException;

/**
 * Told the outcome of each publish, on the pipeline's publish thread, in offset order per log. Implementations must
 * not block: they delay every other confirm of the pipeline.
 */
public interface ConfirmListener
{
    /**
     * The record is stored under the log's durability policy and readable at {@code offset}.
     */
    void onConfirmed(long correlation, long offset);

    /**
     * The record was not stored; nothing of it is visible to readers.
     */
    void onFailed(long correlation, SpoolException error);
}
