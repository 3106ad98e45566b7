package io.spool.perf.lab;

import io.spool.api.queue.Receipt;
import io.spool.queue.Delivery;

import java.nio.charset.StandardCharsets;

/**
 * A copy of what a delivery said, kept after the push consumer's pooled {@link Delivery} is reused.
 * Immutable, thread-safe.
 */
record Received(String key, String value, Receipt receipt)
{
    static Received of(final Delivery delivery)
    {
        final byte[] key = delivery.key();
        return new Received(key == null ? null : new String(key, StandardCharsets.UTF_8),
            delivery.valueAsString(), delivery.receipt());
    }
}
