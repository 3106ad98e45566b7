package io.spool.log.internal.pipeline;

/**
 * Where the flush stage publishes a log's committed end: the log, which makes the records below it readable and
 * wakes whoever waits for them. Called on the flush thread only.
 */
@FunctionalInterface
public interface CommitPublisher
{
    void publishCommitted(long endOffset);
}
