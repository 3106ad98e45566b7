package io.spool.queue.internal.delivery;

/**
 * Where a subscription partition sends its dead messages: publishes a copy, with its death history in the headers,
 * to the dead-letter topic, and tells the partition's {@link DeadLetterOutcomes} once the topic stored or refused
 * it. Called on the subscription's agent thread; must not block.
 */
@FunctionalInterface
public interface DeadLetterSink
{
    DeadLetterSink DROP = (topic, key, headers, value, offset) -> {};

    /** Publishes the copy of the dead message at {@code offset} of the source partition. */
    void send(String topic, byte[] key, byte[] headers, byte[] value, long offset);
}
