package io.spool.api.queue;

/**
 * What a subscription does when its backlog reaches its maximum length or size. Immutable and thread-safe.
 */
public enum OverflowPolicy
{
    /** The oldest ready messages are dead-lettered (reason {@code maxlen}) until the backlog fits again. */
    DROP_HEAD,
    /** A publish to the topic fails with {@link QueueFullException}: the producer's signal to slow down. */
    REJECT_PUBLISH,
    /** As {@link #REJECT_PUBLISH}, and the rejected message is dead-lettered (reason {@code maxlen}). */
    REJECT_PUBLISH_DLX
}
