package io.spool.queue;

/**
 * Where a subscription sends its dead messages: publishes a copy, with its death history in the headers, to the
 * dead-letter topic. Called on the subscription's agent thread; must not block.
 */
@FunctionalInterface
interface DeadLetterSink
{
    DeadLetterSink DROP = (topic, key, headers, value) -> {};

    void send(String topic, byte[] key, byte[] headers, byte[] value);
}
