package io.spool.api.queue;

/**
 * Whether a subscription holds back log retention. Immutable and thread-safe.
 */
public enum RetentionMode
{
    /** A segment may be deleted once every work-queue subscription has acked past it. */
    WORK_QUEUE,
    /** The subscription never holds a segment back; age and size retention alone decide. */
    NONE
}
