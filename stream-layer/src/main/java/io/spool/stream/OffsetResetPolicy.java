package io.spool.stream;

import io.spool.api.stream.NoOffsetForPartitionException;

/**
 * Where a consumer starts reading a partition for which it has no position (no seek and no committed offset),
 * and where it goes when its committed position fell below the log start. Immutable, thread-safe.
 */
public enum OffsetResetPolicy
{
    /** Start at the earliest offset still in the log. */
    EARLIEST,
    /** Start at the end: only records published from now on. */
    LATEST,
    /** Fail the poll with {@link NoOffsetForPartitionException} and let the caller decide. */
    ERROR
}
