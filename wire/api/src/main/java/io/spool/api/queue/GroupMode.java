package io.spool.api.queue;

/**
 * How a subscription keeps the messages of one group (see {@link GroupKeySource}) in order. Immutable and
 * thread-safe.
 */
public enum GroupMode
{
    /** Groups are ignored: any consumer may hold any number of messages of a group. */
    NONE,
    /** At most one message of a group is in flight, in offset order (SQS FIFO message groups). */
    ORDERED,
    /**
     * Every message of a group goes to the consumer that holds the group's older messages, for as long as the group
     * has any not yet acked (Pulsar Key_Shared); a group with none goes to whoever asks next, so consumers that join
     * or leave stall no group.
     */
    KEY_STICKY
}
