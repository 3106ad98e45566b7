package io.spool.queue;

/**
 * Message groups for one subscription partition: with {@link GroupMode#ORDERED} at most one message of a group is
 * out at a time and the next one goes only when it settles; with {@link GroupMode#KEY_STICKY} each group stays with
 * the consumer that holds its older messages. Without groups every gate is open. Not thread-safe: owned by the
 * subscription partition's thread.
 */
final class GroupGate
{
    private final PartitionCore core;
    private final DeadLettering dead;
    private final Delays delays;
    private final MessageGroups groups = new MessageGroups();
    private final boolean ordered;
    private final KeyStickyGroups sticky;

    GroupGate(final PartitionCore core, final SubscriptionSettings settings, final DeadLettering dead,
        final Delays delays)
    {
        this.core = core;
        this.dead = dead;
        this.delays = delays;
        this.ordered = settings.groupMode() == GroupMode.ORDERED;
        this.sticky = settings.groupMode() == GroupMode.KEY_STICKY ? new KeyStickyGroups() : null;
    }

    /** With key-sticky groups, the next message queued for {@code consumerId} by its key, else {@link KeyStickyGroups#NONE}. */
    long nextQueued(final int consumerId)
    {
        return sticky == null ? KeyStickyGroups.NONE : sticky.nextQueued(consumerId);
    }

    /** Whether a message met by the read cursor waits behind the head of its ordered group (it is queued there). */
    boolean holdsBack(final long offset, final int group)
    {
        return ordered && group != MessageTraits.NO_GROUP && !groups.open(group, offset);
    }

    /** Whether a new message of {@code group} may go to {@code consumerId}; if not, it waits for its key's owner. */
    boolean takeNew(final long offset, final int group, final int consumerId)
    {
        return sticky == null || group == MessageTraits.NO_GROUP || sticky.take(offset, group, consumerId);
    }

    /** Whether a released message may go to {@code consumerId}; if not, it waits for its key's owner. */
    boolean takeReleased(final long offset, final int consumerId)
    {
        if (sticky == null)
        {
            return true;
        }
        final int group;
        if (sticky.knows(offset))
        {
            group = sticky.groupOf(offset);
        }
        else
        {
            core.inspector.inspect(offset, core.traits);
            group = core.traits.group;
        }
        return group == MessageTraits.NO_GROUP || sticky.take(offset, group, consumerId);
    }

    /** The {@code count} messages from {@code from} on were acked: {@link #settled} for each, if any can matter. */
    void settledRun(final long from, final int count)
    {
        if (sticky == null && groups.hasNoHeads())
        {
            return;
        }
        for (long offset = from; offset < from + count; offset++)
        {
            settled(offset);
        }
    }

    /**
     * The message at {@code offset} was acked or went dead: its key no longer ties it to a consumer, and if it
     * headed an ordered group, the next waiting message of the group becomes available (or delayed, or dead if it
     * expired while it waited).
     */
    void settled(final long offset)
    {
        if (sticky != null)
        {
            sticky.settled(offset);
        }
        long next = groups.settled(offset);
        while (next != MessageGroups.NONE)
        {
            if (next < core.window.floor() || core.window.isSettled(next))
            {
                // It expired while it waited.
                next = groups.settled(next);
                continue;
            }
            core.inspector.inspect(next, core.traits);
            final long now = core.clock.time();
            if (core.traits.expireAt <= now)
            {
                dead.markDead(next, DeadReason.EXPIRED, core.window.deliveryCount(next));
                next = groups.settled(next);
                continue;
            }
            if (core.traits.deliverAt > now)
            {
                delays.holdUntilDue(next, core.traits.deliverAt);
            }
            else
            {
                core.markReady(next);
            }
            return;
        }
    }

    /** A consumer left: the keys it owned go to whoever asks next, their queued messages ready again. */
    void consumerGone(final int consumerId)
    {
        if (sticky != null)
        {
            sticky.consumerGone(consumerId, core::markReady);
        }
    }

    /**
     * After a restore, puts every unsettled message behind the head of its group again, reading the groups from
     * the log: what was released becomes available only if it heads its group.
     */
    void rebuild()
    {
        if (!ordered)
        {
            return;
        }
        final OffsetWindow window = core.window;
        for (long offset = window.floor(); offset < core.cursor; offset++)
        {
            if (window.isSettled(offset))
            {
                continue;
            }
            core.inspector.inspect(offset, core.traits);
            if (core.traits.group != MessageTraits.NO_GROUP && !groups.open(core.traits.group, offset) &&
                window.isReady(offset))
            {
                core.clearReady(offset);
            }
        }
    }

    /** Messages waiting behind the head of their group, or for the consumer that owns their key. */
    int waitingCount()
    {
        return groups.waitingCount() + (sticky == null ? 0 : sticky.queuedCount());
    }

    long footprintBytes()
    {
        return groups.footprintBytes() + (sticky == null ? 0 : sticky.footprintBytes());
    }
}
