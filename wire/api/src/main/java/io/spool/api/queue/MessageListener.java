package io.spool.api.queue;

import io.spool.api.SpoolException;

/**
 * Receives a push consumer's messages one at a time, on one thread (the consumer's own when embedded, the
 * connection's through the client), so implementations need not be thread-safe. It must not block for long: hand
 * slow work to another thread and settle from there.
 */
@FunctionalInterface
public interface MessageListener
{
    /**
     * Handles one message; the view is valid only during the call. Settle it through {@code consumer} (ack, nack,
     * reject), now or later by receipt; in auto-ack mode it is already settled.
     */
    void onMessage(Message message, PushConsumer consumer);

    /**
     * A settlement this consumer sent was refused (a stale receipt, a second ack); the message it named is left as
     * it was. The default ignores it.
     */
    default void onSettlementRefused(final Receipt receipt, final SpoolException error)
    {
    }

    /**
     * The consumer held a message past the subscription's lock timeout: it went back to the subscription (to be
     * delivered again, or dead on its delivery limit) and settling it now is refused as stale. The consumer's other
     * messages are untouched. The default ignores it.
     */
    default void onLockExpired(final Receipt receipt)
    {
    }
}
