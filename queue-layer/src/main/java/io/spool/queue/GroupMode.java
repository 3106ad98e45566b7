package io.spool.queue;

/**
 * How a subscription keeps the messages of one group (see {@link GroupKeySource}) in order. Immutable and
 * thread-safe.
 */
public enum GroupMode
{
    /** Groups are ignored: any consumer may hold any number of messages of a group. */
    NONE,
    /** At most one message of a group is in flight, in offset order (SQS FIFO message groups). */
    ORDERED
}
