package io.spool.api.stream;

import io.spool.api.log.RecordView;

/**
 * Receives records of the zero-copy poll path. The view is only valid inside the call: copy what must outlive
 * it. Called on the polling thread only, so implementations need not be thread-safe.
 */
@FunctionalInterface
public interface StreamRecordHandler
{
    void onRecord(String topic, int partition, RecordView record);
}
