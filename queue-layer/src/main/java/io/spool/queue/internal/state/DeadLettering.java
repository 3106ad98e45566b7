package io.spool.queue.internal.state;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.DeadLetterHandler;
import io.spool.queue.DeadReason;

/**
 * Ends messages as dead: marks them settled and dead, counts them, journals the reason (and, when the subscription
 * has a dead-letter topic, that a copy is due there, in the same commit), hands them to the dead-letter handler and
 * lets the next message of their group go. It also says when a message has been delivered
 * too often. Not thread-safe: owned by the subscription partition's thread.
 */
final class DeadLettering
{
    private final PartitionCore core;
    private int deliveryLimit;
    private final DeadLetterHandler deadLetters;
    private boolean keepsLetters;
    private GroupGate groups;
    private long deadCount;

    DeadLettering(final PartitionCore core, final SubscriptionSettings settings, final DeadLetterHandler deadLetters)
    {
        this.core = core;
        this.deliveryLimit = settings.deliveryLimit();
        this.deadLetters = deadLetters;
        this.keepsLetters = settings.deadLetterTopic() != null;
    }

    /** Whether deaths from now on owe a copy to a dead-letter topic; a changed setting does not touch earlier ones. */
    void keepsLetters(final boolean keeps)
    {
        this.keepsLetters = keeps;
    }

    /** The groups whose next message a death lets go; set once, as they also let messages die. */
    void groups(final GroupGate groups)
    {
        this.groups = groups;
    }

    /** A changed limit counts from the next message that comes back; deliveries already made stay counted. */
    void deliveryLimit(final int limit)
    {
        this.deliveryLimit = limit;
    }

    /** Past the delivery limit: delivered more often than the limit allows (the limit counts redeliveries). */
    boolean isOverLimit(final int deliveries)
    {
        return deliveryLimit != SubscriptionSettings.UNLIMITED_DELIVERIES && deliveries > deliveryLimit;
    }

    /** The message is dead; the next of its group, if it headed one, may go. */
    void die(final long offset, final DeadReason reason, final int deliveries)
    {
        markDead(offset, reason, deliveries);
        groups.settled(offset);
    }

    /** The message is dead, without a look at its group: for a group's own waiting messages. */
    void markDead(final long offset, final DeadReason reason, final int deliveries)
    {
        core.window.settle(offset, true);
        core.firstDeliveries.settled(offset);
        deadCount++;
        core.stateLog.dead(offset, reason);
        if (keepsLetters)
        {
            final long now = core.clock.time();
            core.stateLog.deadLetterDue(offset, reason, deliveries, now);
            core.dueLetters.due(offset, reason, deliveries, now);
        }
        deadLetters.onDead(offset, reason, deliveries);
        core.advanceFloorFrom(offset);
    }

    /** Messages that went dead since this state was opened. */
    long deadCount()
    {
        return deadCount;
    }
}
