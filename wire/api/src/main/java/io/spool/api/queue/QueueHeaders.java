package io.spool.api.queue;

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

    private QueueHeaders()
    {
    }

    /** The bytes of a millisecond header value. */
    public static byte[] millis(final long millis)
    {
        return Long.toString(millis).getBytes(StandardCharsets.UTF_8);
    }
}
