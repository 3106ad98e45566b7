package io.spool.queue.internal.state;

/**
 * The state of one message in one subscription; docs/design/queue-state-machine.md gives every transition.
 * Immutable and thread-safe.
 */
public enum MessageState
{
    /** Ready to be acquired: never delivered yet, or released and marked redelivered. */
    AVAILABLE,
    /** Held by a consumer until it acks, nacks, rejects, or its lock deadline passes. */
    ACQUIRED,
    /** Done; counts towards the ack floor. Every offset below the ack floor reads as acknowledged. */
    ACKED,
    /** Nacked with a delay; becomes available when the delay is due. */
    DELAYED,
    /** Rejected, over its delivery limit, expired or dropped; reported once to the dead-letter handler. */
    DEAD
}
