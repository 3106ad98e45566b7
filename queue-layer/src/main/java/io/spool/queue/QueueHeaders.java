package io.spool.queue;

import org.agrona.DirectBuffer;

import java.nio.charset.StandardCharsets;

/**
 * The message headers the queue layer reads and writes. Values are UTF-8 text; times and durations are decimal
 * milliseconds. Stateless and thread-safe.
 */
public final class QueueHeaders
{
    /** The message group: at most one message of a group is in flight, in offset order. */
    public static final String GROUP_ID = "x-group-id";
    /** Deliver no earlier than this many milliseconds after the message was published. */
    public static final String DELAY = "x-delay";
    /** Deliver no earlier than this epoch millisecond. */
    public static final String DELIVER_AT = "x-deliver-at";
    /** The message expires this many milliseconds after it was published (dead-lettered with reason expired). */
    public static final String TTL = "x-ttl";

    /**
     * The subscriptions an exchange routed the message to, comma-separated, decided once at publish time: a
     * subscription skips a message that carries this header without its name.
     */
    public static final String ROUTED_TO = "x-routed-to";
    /** The exchange a message was published through. */
    public static final String EXCHANGE = "x-exchange";
    /** The routing key a message was published with. */
    public static final String ROUTING_KEY = "x-routing-key";

    public static final byte[] ROUTED_TO_BYTES = ROUTED_TO.getBytes(StandardCharsets.UTF_8);
    public static final byte[] GROUP_ID_BYTES = GROUP_ID.getBytes(StandardCharsets.UTF_8);
    public static final byte[] DELAY_BYTES = DELAY.getBytes(StandardCharsets.UTF_8);
    public static final byte[] DELIVER_AT_BYTES = DELIVER_AT.getBytes(StandardCharsets.UTF_8);
    public static final byte[] TTL_BYTES = TTL.getBytes(StandardCharsets.UTF_8);

    /** What {@link #parseMillis} returns for a value that is not a non-negative decimal number. */
    public static final long NOT_A_NUMBER = -1;

    private QueueHeaders()
    {
    }

    /** The bytes of a millisecond header value. */
    public static byte[] millis(final long millis)
    {
        return Long.toString(millis).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Reads a non-negative decimal number without allocating; a malformed value reads as {@link #NOT_A_NUMBER}, so a
     * bad header never stops delivery.
     */
    public static long parseMillis(final DirectBuffer buffer, final int at, final int length)
    {
        if (length < 1 || length > 18)
        {
            return NOT_A_NUMBER;
        }
        long value = 0;
        for (int i = 0; i < length; i++)
        {
            final int digit = buffer.getByte(at + i) - '0';
            if (digit < 0 || digit > 9)
            {
                return NOT_A_NUMBER;
            }
            value = value * 10 + digit;
        }
        return value;
    }
}
