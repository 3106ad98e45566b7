package io.spool.queue;

/**
 * How a consumer settles a delivery. The codes travel in settlement messages to the subscription's agent.
 */
enum Settlement
{
    ACK("ack"), NACK("nack"), NACK_DELAYED("nack with delay"), REJECT("reject"), EXTEND("extend");

    private static final Settlement[] BY_CODE = values();

    private final String action;

    Settlement(final String action)
    {
        this.action = action;
    }

    /** The settlement in words, as refusals name it. */
    String action()
    {
        return action;
    }

    int code()
    {
        return ordinal() + 1;
    }

    static Settlement ofCode(final int code)
    {
        return BY_CODE[code - 1];
    }
}
