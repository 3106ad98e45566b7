package io.spool.api.routing;

/**
 * How an exchange decides which bindings a message matches, as in AMQP 0-9-1.
 */
public enum ExchangeType
{
    /** The routing key equals the binding key. */
    DIRECT,
    /** The routing key matches the binding pattern: words split by '.', '*' is one word, '#' zero or more. */
    TOPIC,
    /** Every binding matches. */
    FANOUT,
    /** The message headers match the binding's headers, all of them or any one ({@link HeadersMatch}). */
    HEADERS
}
