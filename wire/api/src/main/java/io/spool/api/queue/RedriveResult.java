package io.spool.api.queue;

/**
 * What a redrive did. Immutable as far as its array is left alone; thread-safe under that condition.
 *
 * @param moved      dead-lettered messages published back to their source subscription.
 * @param skipped    records of the range that carry no death history, or whose source subscription is gone.
 * @param nextOffset per dead-letter partition, the offset after the last record read: where to resume.
 */
public record RedriveResult(long moved, long skipped, long[] nextOffset)
{
}
