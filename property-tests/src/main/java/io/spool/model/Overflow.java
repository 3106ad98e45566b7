package io.spool.model;

/**
 * A queue subscription's overflow bounds, as {@link QueueModel} applies them (RabbitMQ's max length): at most
 * {@code maxLength} ready messages and {@code maxBytes} bytes of ready messages ({@link #NO_LIMIT} for
 * either to leave it open), and what happens past them. Immutable.
 */
public record Overflow(long maxLength, long maxBytes, Policy policy)
{
    public static final long NO_LIMIT = -1;
    public static final Overflow NONE = new Overflow(NO_LIMIT, NO_LIMIT, Policy.DROP_HEAD);

    public enum Policy
    {
        /** The oldest ready messages go dead (maxlen) until both bounds hold again. */
        DROP_HEAD,
        /** A publish is refused while either bound is reached. */
        REJECT_PUBLISH,
        /** As {@link #REJECT_PUBLISH}, and what it refused is dead-lettered (maxlen). */
        REJECT_PUBLISH_DLX
    }

    public boolean hasByteBound()
    {
        return maxBytes != NO_LIMIT;
    }

    /** Whether drop-head has to drop: a bound is passed. */
    boolean isOver(final long ready, final long bytes)
    {
        return maxLength != NO_LIMIT && ready > maxLength || maxBytes != NO_LIMIT && bytes > maxBytes;
    }

    /** Whether a reject policy refuses the next publish: a bound is reached. */
    boolean isAtLimit(final long ready, final long bytes)
    {
        return maxLength != NO_LIMIT && ready >= maxLength || maxBytes != NO_LIMIT && bytes >= maxBytes;
    }
}
