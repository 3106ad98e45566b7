package io.spool.queue.internal.state;

/**
 * Told about each delivery whose lock expired before it was settled; the message is available again (or dead on
 * its delivery limit) by the time this is called. Called only on the state's owning thread, so implementations
 * need not be thread-safe; it must not call back into the state.
 */
@FunctionalInterface
public interface LockExpiryHandler
{
    LockExpiryHandler NONE = (offset, consumerId, deliveryNumber) -> {};

    void onLockExpired(long offset, int consumerId, int deliveryNumber);
}
