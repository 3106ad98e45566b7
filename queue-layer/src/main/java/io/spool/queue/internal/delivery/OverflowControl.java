package io.spool.queue.internal.delivery;

import io.spool.api.queue.OverflowPolicy;
import io.spool.api.queue.SubscriptionSettings;
import io.spool.queue.Delivery;
import io.spool.queue.internal.state.ReadyBytes;
import io.spool.queue.internal.state.PartitionCounts;

/**
 * Keeps a subscription's backlog within its maximum length and size: under {@link OverflowPolicy#DROP_HEAD} it
 * dead-letters the oldest ready messages, across partitions oldest first, each agent pass; under the reject
 * policies it publishes whether the subscription is full, for publishers to check. {@link #enforce()} runs on the
 * agent thread; {@link #isFull()} and {@link #describe()} may be called from any thread.
 * <p>
 * Design note: publishers read a flag the agent refreshes each pass instead of asking the agent, so a publish
 * never waits on a subscription; the price is that a burst can pass the limit by what arrives within one pass. The
 * counts themselves are exact: ready messages as {@link PartitionCounts#readyCount()} counts them, bytes
 * as {@link ReadyBytes} does.
 */
public final class OverflowControl
{
    private final SubscriptionSettings settings;
    private final PartitionWorker[] partitions;
    private final Delivery probe = new Delivery();
    private volatile boolean full;
    private volatile long length;
    private volatile long bytes;

    OverflowControl(final SubscriptionSettings settings, final PartitionWorker[] partitions)
    {
        this.settings = settings;
        this.partitions = partitions;
    }

    /**
     * @return the number of messages dropped.
     */
    int enforce()
    {
        if (!settings.hasOverflowLimit())
        {
            return 0;
        }
        readAhead();
        int dropped = 0;
        long ready = readyLength();
        long readyBytes = readyBytes();
        if (settings.overflowPolicy() == OverflowPolicy.DROP_HEAD)
        {
            while (isOver(ready, readyBytes) && dropOldest())
            {
                dropped++;
                ready = readyLength();
                readyBytes = readyBytes();
            }
        }
        publish(ready, readyBytes);
        return dropped;
    }

    /** Works out whether the subscription is full without dropping anything: before its agent runs. */
    void measure()
    {
        if (settings.hasOverflowLimit())
        {
            readAhead();
            publish(readyLength(), readyBytes());
        }
    }

    /**
     * Reads the messages that arrived ahead of delivery first, so that those published with a delivery time count as
     * delayed, not ready, before the bounds are checked.
     */
    private void readAhead()
    {
        for (final PartitionWorker partition : partitions)
        {
            partition.readAhead();
        }
    }

    private void publish(final long ready, final long readyBytes)
    {
        length = ready;
        bytes = readyBytes;
        full = isAtLimit(ready, readyBytes);
    }

    /** True when a reject policy is in force and the backlog is at its limit. */
    public boolean isFull()
    {
        return full && settings.overflowPolicy() != OverflowPolicy.DROP_HEAD;
    }

    public String describe()
    {
        return length + " ready messages (max " + limitText(settings.maxLength()) + ") and " + bytes +
            " ready bytes (max " + limitText(settings.maxBytes()) + ")";
    }

    private static String limitText(final long limit)
    {
        return limit == SubscriptionSettings.NO_LIMIT ? "none" : Long.toString(limit);
    }

    private boolean isOver(final long ready, final long readyBytes)
    {
        return settings.maxLength() != SubscriptionSettings.NO_LIMIT && ready > settings.maxLength() ||
            settings.maxBytes() != SubscriptionSettings.NO_LIMIT && readyBytes > settings.maxBytes();
    }

    private boolean isAtLimit(final long ready, final long readyBytes)
    {
        return settings.maxLength() != SubscriptionSettings.NO_LIMIT && ready >= settings.maxLength() ||
            settings.maxBytes() != SubscriptionSettings.NO_LIMIT && readyBytes >= settings.maxBytes();
    }

    /** Drops the ready message published first, comparing the oldest of each partition. */
    private boolean dropOldest()
    {
        PartitionWorker oldest = null;
        long oldestTimestamp = Long.MAX_VALUE;
        for (final PartitionWorker partition : partitions)
        {
            final long offset = partition.state().counts().oldestReadyOffset();
            if (offset >= 0 && partition.read(offset, 1, probe) && probe.timestamp() < oldestTimestamp)
            {
                oldest = partition;
                oldestTimestamp = probe.timestamp();
            }
        }
        return oldest != null && oldest.state().dropOldest();
    }

    private long readyLength()
    {
        return PartitionWorker.readyCount(partitions);
    }

    private long readyBytes()
    {
        long bytes = 0;
        for (final PartitionWorker partition : partitions)
        {
            bytes += partition.state().counts().readyBytes();
        }
        return bytes;
    }
}
