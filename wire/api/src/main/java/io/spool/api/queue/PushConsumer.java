package io.spool.api.queue;

/**
 * A consumer the subscription pushes messages to, at most {@link ConsumerOptions#prefetch()} unsettled at a time.
 * Settling is asynchronous: a refused settlement is reported to the listener's
 * {@link MessageListener#onSettlementRefused}. Safe to settle from any thread.
 */
public interface PushConsumer extends AutoCloseable
{
    ConsumerOptions options();

    void ack(Receipt receipt);

    /** Releases the message to be delivered again now. */
    void nack(Receipt receipt);

    /** Releases the message to be delivered again after {@code delayMillis}. */
    void nack(Receipt receipt, long delayMillis);

    /** Moves the message to the dead letters (or drops it when the subscription has none). */
    void reject(Receipt receipt);

    /** Keeps the message locked to this consumer for {@code millis} from now. */
    void extend(Receipt receipt, long millis);

    default void ack(final Message message)
    {
        ack(message.receipt());
    }

    default void nack(final Message message)
    {
        nack(message.receipt());
    }

    default void nack(final Message message, final long delayMillis)
    {
        nack(message.receipt(), delayMillis);
    }

    default void reject(final Message message)
    {
        reject(message.receipt());
    }

    default void extend(final Message message, final long millis)
    {
        extend(message.receipt(), millis);
    }

    /**
     * Stops deliveries; messages delivered and not settled go back to the subscription, to be delivered again.
     */
    @Override
    void close();
}
