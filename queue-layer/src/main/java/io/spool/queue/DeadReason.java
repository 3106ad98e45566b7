package io.spool.queue;

/**
 * Why a message went dead, with the names RabbitMQ uses in {@code x-death}. Immutable and thread-safe.
 */
public enum DeadReason
{
    REJECTED("rejected"),
    EXPIRED("expired"),
    MAXLEN("maxlen"),
    DELIVERY_LIMIT("delivery_limit");

    private static final DeadReason[] BY_CODE = values();

    private final String label;

    DeadReason(final String label)
    {
        this.label = label;
    }

    /** The reason as written in a death history header. */
    public String label()
    {
        return label;
    }

    /** The stable code stored in state files. */
    public int code()
    {
        return ordinal();
    }

    /**
     * @throws CorruptStateException if no reason has that code.
     */
    public static DeadReason fromCode(final int code)
    {
        if (code < 0 || code >= BY_CODE.length)
        {
            throw new CorruptStateException("unknown dead-letter reason code " + code);
        }
        return BY_CODE[code];
    }
}
