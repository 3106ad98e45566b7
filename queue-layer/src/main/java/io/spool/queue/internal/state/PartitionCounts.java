package io.spool.queue.internal.state;

/**
 * How many messages of one partition are in each state, and what the state holds: the figures behind a
 * subscription's metrics, its overflow limit and the memory tests. Reads only; not thread-safe, read on the thread
 * that owns the {@link SubscriptionPartitionState} it counts.
 */
public final class PartitionCounts
{
    private final PartitionCore core;
    private final MessageStateReader states;
    private final GroupGate groups;
    private final Delays delays;
    private final DeadLettering dead;
    private final Acquisitions acquisitions;

    PartitionCounts(final PartitionCore core, final MessageStateReader states, final GroupGate groups,
        final Delays delays, final DeadLettering dead, final Acquisitions acquisitions)
    {
        this.core = core;
        this.states = states;
        this.groups = groups;
        this.delays = delays;
        this.dead = dead;
        this.acquisitions = acquisitions;
    }

    /**
     * Messages that an acquire could hand out now: released ones plus those not yet delivered, but not those waiting
     * behind their group, delayed or dead. With ordered groups every message the log end passed has been met
     * ({@link SubscriptionPartitionState#meetArrivals()}) and is known to wait or not; only past the limits on
     * waiting messages, where the cursor stops, are unmet messages counted as ready. A message published with a
     * delivery time is known as delayed once the read-ahead ({@link SubscriptionPartitionState#readAheadForExpiry})
     * has read it, up to its reach past the ack floor.
     */
    public long readyCount()
    {
        return states.readyCount();
    }

    /** The lowest offset an acquire would hand out now, or -1 if none is ready; the owner turns it into an age. */
    public long oldestReadyOffset()
    {
        return states.oldestReadyOffset();
    }

    /**
     * The frame bytes of the ready messages when the subscription has an overflow limit (see {@link ReadyBytes}),
     * else 0.
     */
    public long readyBytes()
    {
        return core.readyBytes == null ? 0 : core.readyBytes.total();
    }

    public int inFlightCount()
    {
        return core.inFlightCount;
    }

    /** Messages waiting behind the head of their group, or for the consumer that owns their key. */
    public int groupWaitingCount()
    {
        return groups.waitingCount();
    }

    /**
     * Messages waiting for a time: nacked with a delay, under a retry ladder, or published with a delivery time,
     * whether the cursor met them or the read-ahead found them past it.
     */
    public int delayedCount()
    {
        return delays.count() + core.delayedAhead.count();
    }

    /** Messages that went dead since this state was opened. */
    public long deadCount()
    {
        return dead.deadCount();
    }

    /** Deliveries after the first, since this state was opened. */
    public long redeliveryCount()
    {
        return acquisitions.redeliveryCount();
    }

    /** Acks that took effect since this state was opened (by receipt or in a push consumer's run). */
    public long ackCount()
    {
        return core.ackCount;
    }

    /** Bytes held by this state's arrays, maps and timer wheel, counted from their current capacities. */
    public long footprintBytes()
    {
        return core.footprintBytes() + groups.footprintBytes();
    }

    /** Lock, delay and expiry timers the state's timer wheel holds. */
    public long timerCount()
    {
        return core.timers.timerCount();
    }
}
