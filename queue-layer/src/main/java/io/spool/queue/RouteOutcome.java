package io.spool.queue;

import io.spool.api.stream.PublishResult;

import java.util.List;

/**
 * What became of a message published through an exchange. Immutable and thread-safe.
 *
 * @param status      routed, returned to the publisher (mandatory and unroutable), or dropped as unroutable.
 * @param subscriptions the subscriptions that will see the message.
 * @param stored      where it was stored: one record per topic that has a matched subscription.
 */
public record RouteOutcome(Status status, List<String> subscriptions, List<PublishResult> stored)
{
    /** How routing ended. */
    public enum Status
    {
        /** At least one subscription matched (through the exchange or its alternates); the message is stored. */
        ROUTED,
        /** Nothing matched and the publish was mandatory: nothing is stored and the publisher keeps the message. */
        RETURNED,
        /** Nothing matched: confirmed, counted as unroutable, and not stored. */
        UNROUTABLE
    }
}
