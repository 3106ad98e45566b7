package io.spool.api.stream;

/**
 * Where a published record landed. Immutable, thread-safe.
 */
public record PublishResult(String topic, int partition, long offset)
{
}
