package io.spool.api.queue;

/**
 * A snapshot of one subscription's backlog, summed over its partitions. Immutable, thread-safe.
 */
public final class SubscriptionMetrics
{
    private final long ready;
    private final long inFlight;
    private final long delayed;
    private final long dead;
    private final long redeliveries;
    private final long oldestReadyAgeMillis;
    private final int consumers;
    private final long acks;

    /** The figures as the agent counts them; public so that a network client can rebuild what a server sent. */
    public SubscriptionMetrics(final long ready, final long inFlight, final long delayed, final long dead,
        final long redeliveries, final long oldestReadyAgeMillis, final int consumers, final long acks)
    {
        this.acks = acks;
        this.ready = ready;
        this.inFlight = inFlight;
        this.delayed = delayed;
        this.dead = dead;
        this.redeliveries = redeliveries;
        this.oldestReadyAgeMillis = oldestReadyAgeMillis;
        this.consumers = consumers;
    }

    /**
     * Messages a receive could be handed now; not those delayed, or waiting behind an earlier message of their
     * ordered group (as SQS does not count a busy group's messages as visible).
     */
    public long ready()
    {
        return ready;
    }

    /** Deliveries handed out and not yet settled. */
    public long inFlight()
    {
        return inFlight;
    }

    /** Messages waiting for their delay to end. */
    public long delayed()
    {
        return delayed;
    }

    /** Messages dead-lettered since the subscription was created. */
    public long dead()
    {
        return dead;
    }

    /** Deliveries that were not the message's first. */
    public long redeliveries()
    {
        return redeliveries;
    }

    /** Age of the oldest ready message by its publish time, or 0 when none is ready: the better backlog alarm. */
    public long oldestReadyAgeMillis()
    {
        return oldestReadyAgeMillis;
    }

    public int consumers()
    {
        return consumers;
    }

    /**
     * Acks that took effect since the subscription was opened (pull or push, one by one or in runs); a counter, so
     * its rate is the acks per second.
     */
    public long acks()
    {
        return acks;
    }

    @Override
    public String toString()
    {
        return "ready=" + ready + " inFlight=" + inFlight + " delayed=" + delayed + " dead=" + dead +
            " redeliveries=" + redeliveries + " oldestReadyAgeMs=" + oldestReadyAgeMillis + " consumers=" + consumers + " acks=" + acks;
    }
}
