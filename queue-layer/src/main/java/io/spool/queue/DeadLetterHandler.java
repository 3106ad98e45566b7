package io.spool.queue;

/**
 * Told once about each message that goes dead, so it can be published to the dead-letter target. Called only on
 * the state's owning thread, so implementations need not be thread-safe; it must not call back into the state.
 */
@FunctionalInterface
public interface DeadLetterHandler
{
    DeadLetterHandler NONE = (offset, reason, deliveryCount) -> {};

    void onDead(long offset, DeadReason reason, int deliveryCount);
}
