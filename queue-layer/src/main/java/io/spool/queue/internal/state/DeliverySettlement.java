package io.spool.queue.internal.state;

import io.spool.api.InvalidRequestException;
import io.spool.api.queue.RetryPolicy;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.DeadReason;

/**
 * Settles one delivery at a time, as its consumer asks: an ack ends the message, a nack brings it back (at once, or
 * after a delay or the retry ladder's next rung), a reject makes it dead, an extension moves its lock. Each first finds
 * the record the delivery holds, refusing a receipt that no longer holds the message; {@link #settle} checks the
 * arguments first. The holder named is the consumer that settles: a push consumer
 * settles only its own deliveries, a settlement through the subscription ({@link ReceiptCheck#ANY_HOLDER}) any
 * delivery it has the receipt of. Not thread-safe: owned by the subscription partition's thread.
 */
final class DeliverySettlement
{
    private final PartitionCore core;
    private final RetryPolicy retryPolicy;
    private final Releases releases;
    private final Delays delays;
    private final DeadLettering dead;
    private final GroupGate groups;

    DeliverySettlement(final PartitionCore core, final RetryPolicy retryPolicy, final Releases releases,
        final Delays delays, final DeadLettering dead, final GroupGate groups)
    {
        this.core = core;
        this.retryPolicy = retryPolicy;
        this.releases = releases;
        this.delays = delays;
        this.dead = dead;
        this.groups = groups;
    }

    /**
     * Checks the argument of {@code settlement}, a delay (nack with delay) or a lock (extend), and settles.
     *
     * @return the new lock deadline of an extension, else 0.
     */
    long settle(final Settlement settlement, final long offset, final int deliveryNumber, final long argument,
        final int holder)
    {
        switch (settlement)
        {
            case ACK:
                ack(offset, deliveryNumber, holder);
                break;
            case NACK:
                nack(offset, deliveryNumber, holder);
                break;
            case NACK_DELAYED:
                if (argument < 1 || argument > RetryPolicy.MAX_DELAY_MILLIS)
                {
                    throw new InvalidRequestException("nack delay must be between 1 ms and " +
                        RetryPolicy.MAX_DELAY_MILLIS + " ms, was " + argument + " ms");
                }
                nackWithDelay(offset, deliveryNumber, argument, holder);
                break;
            case REJECT:
                reject(offset, deliveryNumber, holder);
                break;
            case EXTEND:
                if (argument < 1 || argument > SubscriptionSettings.MAX_LOCK_TIMEOUT_MILLIS)
                {
                    throw new InvalidRequestException("lock extension must be between 1 ms and " +
                        SubscriptionSettings.MAX_LOCK_TIMEOUT_MILLIS + " ms, was " + argument + " ms");
                }
                return extend(offset, deliveryNumber, argument, holder);
            default:
                throw new IllegalStateException("unknown settlement " + settlement);
        }
        return 0;
    }

    void ack(final long offset, final int deliveryNumber, final int holder)
    {
        final int record = releases.heldRecord(offset, deliveryNumber, holder, Settlement.ACK.action());
        core.endHold(record);
        core.settleAcked(offset, record);
        core.stateLog.acked(offset);
        core.advanceFloorFrom(offset);
        groups.settled(offset);
    }

    void nack(final long offset, final int deliveryNumber, final int holder)
    {
        final int record = releases.heldRecord(offset, deliveryNumber, holder, Settlement.NACK.action());
        core.timers.unlink(record);
        if (retryPolicy.isLadder())
        {
            releases.returnRunBehind(offset);
            delays.retry(offset, record, retryPolicy);
        }
        else
        {
            releases.returnHeld(offset, record);
        }
    }

    void nackWithDelay(final long offset, final int deliveryNumber, final long delayMillis, final int holder)
    {
        final int record = releases.heldRecord(offset, deliveryNumber, holder,
            Settlement.NACK_DELAYED.action());
        core.timers.unlink(record);
        releases.returnRunBehind(offset);
        delays.delayHeld(offset, record, delayMillis);
    }

    void reject(final long offset, final int deliveryNumber, final int holder)
    {
        final int record = releases.heldRecord(offset, deliveryNumber, holder, Settlement.REJECT.action());
        core.timers.unlink(record);
        core.endHold(record);
        core.records.free(record);
        dead.die(offset, DeadReason.REJECTED, core.window.deliveryCount(offset));
    }

    long extend(final long offset, final int deliveryNumber, final long lockMillis, final int holder)
    {
        final int record = releases.heldRecord(offset, deliveryNumber, holder, Settlement.EXTEND.action());
        final long deadline = core.clock.time() + lockMillis;
        core.timers.unlink(record);
        core.timers.schedule(record, deadline);
        return deadline;
    }
}
