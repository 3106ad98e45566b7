package io.spool.api.queue;

import java.util.List;

/**
 * A subscription read as a queue: receive messages (pull) or have them pushed ({@link #consume}), and settle each
 * by its receipt. Settling by receipt is synchronous here: a refusal throws (a stale receipt, a second ack).
 */
public interface QueueSubscription
{
    String name();

    /**
     * Up to {@code max} ready messages, waiting up to {@code waitMillis} for the first; empty when none came.
     * Each is locked to the caller for the subscription's lock timeout.
     */
    List<? extends Message> receive(int max, long waitMillis);

    void ack(Receipt receipt);

    /** Releases the message to be delivered again now. */
    void nack(Receipt receipt);

    /** Releases the message to be delivered again after {@code delayMillis}. */
    void nack(Receipt receipt, long delayMillis);

    /** Moves the message to the dead letters (or drops it when the subscription has none). */
    void reject(Receipt receipt);

    /** Keeps the message locked for {@code millis} from now. */
    void extend(Receipt receipt, long millis);

    /** Acks each receipt; one refused does not stop the others. */
    BatchResult ack(List<Receipt> receipts);

    BatchResult nack(List<Receipt> receipts);

    BatchResult nack(List<Receipt> receipts, long delayMillis);

    BatchResult reject(List<Receipt> receipts);

    BatchResult extend(List<Receipt> receipts, long millis);

    /** Starts a push consumer on this subscription. */
    PushConsumer consume(ConsumerOptions options, MessageListener listener);
}
