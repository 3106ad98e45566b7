package io.spool.queue.internal.state;

/**
 * How a consumer settles a delivery. The codes travel in settlement messages to the subscription's agent.
 */
public enum Settlement
{
    ACK("ack"), NACK("nack"), NACK_DELAYED("nack with delay"), REJECT("reject"), EXTEND("extend");

    private static final Settlement[] BY_CODE = values();

    private final String action;

    Settlement(final String action)
    {
        this.action = action;
    }

    /** The settlement in words, as refusals name it. */
    public String action()
    {
        return action;
    }

    public int code()
    {
        return ordinal() + 1;
    }

    public static Settlement ofCode(final int code)
    {
        return BY_CODE[code - 1];
    }
}
