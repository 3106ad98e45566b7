package io.spool.queue;

/**
 * Told once about each message that goes dead, so it can be published to the dead-letter target.
 * Called on the state's owning thread; must not call back into it.
 */
@FunctionalInterface
public interface DeadLetterHandler
{
    DeadLetterHandler NONE = (offset, reason, deliveryCount) -> {};

    void onDead(long offset, DeadReason reason, int deliveryCount);
}
