package io.spool.queue;

/**
 * How a consumer settles a delivery. The codes travel in settlement messages to the subscription's agent.
 */
enum Settlement
{
    ACK, NACK, NACK_DELAYED, REJECT, EXTEND;

    private static final Settlement[] BY_CODE = values();

    int code()
    {
        return ordinal() + 1;
    }

    static Settlement ofCode(final int code)
    {
        return BY_CODE[code - 1];
    }
}
