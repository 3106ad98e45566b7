package io.spool.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a consumer of a replicated subscription saw (each receive, with when it was asked for, and each ack with its
 * outcome) and the checks the history must pass, in the spirit of Jepsen's queue workloads: no message whose ack was
 * confirmed is delivered again by a receive asked for after that confirm, a message's delivery count never goes
 * back, and no message is lost (every record of the partition ends acked). Event times are a counter of this
 * history's own, not a clock. Thread-safe; the checks assume one consumer, whose receives follow one another.
 */
final class QueueHistory
{
    private record Delivery(long offset, int deliveryNumber, long askedAt)
    {
    }

    private final List<Delivery> deliveries = new ArrayList<>();
    /** Offset to the event time its ack was confirmed (answered, or refused as already settled). */
    private final Map<Long, Long> ackConfirmedAt = new HashMap<>();
    /** Offsets whose ack got no answer: acked or not, nobody knows. */
    private final Set<Long> ackUnknown = new HashSet<>();
    private long now;

    /** Notes that a receive is about to be asked for; hand the returned time to {@link #received}. */
    synchronized long receiving()
    {
        return now++;
    }

    synchronized void received(final long askedAt, final List<ClusterDelivery> delivered)
    {
        for (final ClusterDelivery delivery : delivered)
        {
            deliveries.add(new Delivery(delivery.offset(), delivery.deliveryCount(), askedAt));
        }
        now++;
    }

    /** The ack of {@code offset} was confirmed: answered, or refused because the message was already acked. */
    synchronized void acked(final long offset)
    {
        ackConfirmedAt.putIfAbsent(offset, now++);
    }

    synchronized void ackUnanswered(final long offset)
    {
        ackUnknown.add(offset);
    }

    synchronized int ackedMessages()
    {
        return ackConfirmedAt.size();
    }

    /** Whether every offset below {@code end} is acked, or has an ack of unknown outcome. */
    synchronized boolean settledBelow(final long end)
    {
        for (long offset = 0; offset < end; offset++)
        {
            if (!ackConfirmedAt.containsKey(offset) && !ackUnknown.contains(offset))
            {
                return false;
            }
        }
        return true;
    }

    /** Waits until {@code count} messages are acked in all: the subscription is making progress. */
    void awaitAcked(final int count, final Duration timeout)
    {
        Eventually.holds(() -> ackedMessages() >= count, timeout,
            () -> "only " + ackedMessages() + " of " + count + " messages acked");
    }

    /** Every violation against a partition whose records are the offsets below {@code end}; empty when none. */
    synchronized List<String> violations(final long end)
    {
        final List<String> violations = new ArrayList<>();
        final Map<Long, Integer> lastDeliveryNumber = new HashMap<>();
        for (final Delivery delivery : deliveries)
        {
            final Long ackedAt = ackConfirmedAt.get(delivery.offset());
            if (ackedAt != null && delivery.askedAt() > ackedAt)
            {
                violations.add("offset " + delivery.offset() + " delivered again (delivery " +
                    delivery.deliveryNumber() + ") by a receive asked for after its ack was confirmed");
            }
            final Integer last = lastDeliveryNumber.put(delivery.offset(), delivery.deliveryNumber());
            if (last != null && delivery.deliveryNumber() <= last)
            {
                violations.add("delivery count of offset " + delivery.offset() + " went from " + last + " to " +
                    delivery.deliveryNumber());
            }
            if (delivery.offset() < 0 || delivery.offset() >= end)
            {
                violations.add("offset " + delivery.offset() + " delivered, outside the partition's [0, " + end + ")");
            }
        }
        for (long offset = 0; offset < end; offset++)
        {
            if (!ackConfirmedAt.containsKey(offset) && !ackUnknown.contains(offset))
            {
                violations.add("offset " + offset + " never acked: lost to the subscription");
            }
        }
        return violations;
    }
}
