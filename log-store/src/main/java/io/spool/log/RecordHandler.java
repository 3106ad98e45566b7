package io.spool.log;

import io.spool.api.log.RecordView;

/**
 * Receives records from {@link LogReader#poll}; the view is valid only during the call.
 */
@FunctionalInterface
public interface RecordHandler
{
    void onRecord(RecordView record);
}
