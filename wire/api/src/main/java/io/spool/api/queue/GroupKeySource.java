package io.spool.api.queue;

/**
 * Where a message's group comes from. Immutable and thread-safe.
 */
public enum GroupKeySource
{
    /** The {@link QueueHeaders#GROUP_ID} header; a message without it belongs to no group. */
    HEADER,
    /** The record key; a message with a null key belongs to no group. */
    RECORD_KEY
}
