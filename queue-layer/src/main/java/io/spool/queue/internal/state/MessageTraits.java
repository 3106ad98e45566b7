package io.spool.queue.internal.state;

/**
 * What the queue needs to know about one message beyond its offset: whether an exchange routed it to this
 * subscription, its group, when it may be delivered and when it expires. A reusable holder filled by a
 * {@link MessageInspector}. Not thread-safe.
 */
public final class MessageTraits
{
    /** The group of a message that has none. */
    public static final int NO_GROUP = 0;
    public static final long NEVER = Long.MAX_VALUE;

    public boolean routed;
    public int group;
    public long deliverAt;
    public long expireAt;
    /** Bytes of the record in the log; 0 when retention removed it. */
    public int size;

    /** Routed here, in no group, due at once and never expiring: nothing to do but deliver it. */
    public boolean isPlain()
    {
        return routed && group == NO_GROUP && deliverAt == 0 && expireAt == NEVER;
    }

    public MessageTraits clear()
    {
        routed = true;
        group = NO_GROUP;
        deliverAt = 0;
        expireAt = NEVER;
        size = 0;
        return this;
    }
}
