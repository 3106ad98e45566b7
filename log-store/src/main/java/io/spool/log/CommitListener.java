package io.spool.log;

/**
 * Told when a log's committed end advances, on the pipeline's flush thread, once per batch. Must not block: queue
 * dispatchers use it to wake themselves.
 */
@FunctionalInterface
public interface CommitListener
{
    void onCommitted(PartitionLog log, long endOffset);
}
