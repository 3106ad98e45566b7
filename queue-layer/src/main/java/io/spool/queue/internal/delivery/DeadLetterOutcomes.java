package io.spool.queue.internal.delivery;

import io.spool.api.SpoolException;

/**
 * Told what became of each dead letter a partition sent: stored by the dead-letter topic, or refused. Thread-safe:
 * called on the thread that completes the dead-letter topic's publishes.
 */
public interface DeadLetterOutcomes
{
    void letterStored(long offset);

    void letterRefused(long offset, SpoolException error);
}
