package io.spool.wire.kafka;

import io.spool.api.queue.Receipt;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One share session (KIP-932): a member's fetches on one connection, numbered by epoch, and the records it has
 * acquired and not yet acknowledged, each with the receipt of its Spool delivery, and whether a fetch is under
 * way. Guarded by its own monitor.
 */
final class ShareSession
{
    final String group;
    final String memberId;
    final KafkaConnection connection;
    int nextEpoch = 1;
    private final Map<Long, Receipt> held = new HashMap<>();
    private boolean fetching;
    private boolean closed;

    ShareSession(final String group, final String memberId, final KafkaConnection connection)
    {
        this.group = group;
        this.memberId = memberId;
        this.connection = connection;
    }

    static long key(final int partition, final long offset)
    {
        // Offsets stay far below 2^48 and partitions below 2^15, so the pair fits one long.
        return ((long)partition << 48) | offset;
    }

    synchronized void hold(final Receipt receipt)
    {
        held.put(key(receipt.partition(), receipt.offset()), receipt);
    }

    synchronized Receipt take(final int partition, final long offset)
    {
        return held.remove(key(partition, offset));
    }

    synchronized Receipt peek(final int partition, final long offset)
    {
        return held.get(key(partition, offset));
    }

    /** Empties the session and returns what it held, for releasing it. */
    synchronized List<Receipt> drain()
    {
        final List<Receipt> all = new ArrayList<>(held.values());
        held.clear();
        return all;
    }

    /** Marks a fetch under way; false when the session is closed already. */
    synchronized boolean beginFetch()
    {
        fetching = !closed;
        return fetching;
    }

    /** Ends the fetch under way; true when the session was closed meanwhile and the fetch must release it. */
    synchronized boolean endFetch()
    {
        fetching = false;
        return closed;
    }

    synchronized boolean isClosed()
    {
        return closed;
    }

    /**
     * Closes the session; true when it can be released now, false when a fetch under way releases it as it ends
     * (so that records released now are not taken by that fetch and counted once more).
     */
    synchronized boolean close()
    {
        closed = true;
        return !fetching;
    }

    synchronized void advance()
    {
        nextEpoch = nextEpoch == Integer.MAX_VALUE ? 1 : nextEpoch + 1;
    }
}
