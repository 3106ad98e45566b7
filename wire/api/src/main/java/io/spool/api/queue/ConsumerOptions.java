package io.spool.api.queue;

/**
 * How a push consumer takes deliveries: its prefetch (the most unacked deliveries it holds at once) and whether
 * deliveries count as acked the moment they are handed over. Immutable, thread-safe.
 */
public final class ConsumerOptions
{
    public static final int MAX_PREFETCH = 65_536;

    private final int prefetch;
    private final boolean autoAck;

    private ConsumerOptions(final int prefetch, final boolean autoAck)
    {
        if (prefetch < 1 || prefetch > MAX_PREFETCH)
        {
            throw new InvalidSettingsException("prefetch must be between 1 and " + MAX_PREFETCH + ", was " + prefetch);
        }
        this.prefetch = prefetch;
        this.autoAck = autoAck;
    }

    /** Manual acks, at most {@code prefetch} unacked deliveries at a time. */
    public static ConsumerOptions prefetch(final int prefetch)
    {
        return new ConsumerOptions(prefetch, false);
    }

    /**
     * Every delivery is acked as it is handed over, so whatever the consumer has not finished when it dies is lost,
     * as with RabbitMQ's auto-ack. {@code prefetch} bounds the deliveries waiting in the consumer's buffer.
     */
    public static ConsumerOptions autoAck(final int prefetch)
    {
        return new ConsumerOptions(prefetch, true);
    }

    public int prefetch()
    {
        return prefetch;
    }

    public boolean autoAck()
    {
        return autoAck;
    }

    @Override
    public String toString()
    {
        return (autoAck ? "auto-ack" : "manual ack") + ", prefetch " + prefetch;
    }
}
