package io.spool.wire;

import io.netty.buffer.ByteBuf;
import io.spool.api.queue.RedriveResult;
import io.spool.api.queue.SubscriptionDescription;
import io.spool.api.queue.SubscriptionMetrics;

/**
 * Bodies of the subscription operations an operator uses beside create, delete and list. Strings are a uint16 byte
 * count and UTF-8 bytes; integers are little-endian.
 * <pre>
 *  Subscription Metrics (60 bytes)                DESCRIBE_SUBSCRIPTION request: Name
 *  +-----------------------------------+            response: Name, Topic, Subscription Settings
 *  | Ready (int64)                     |  0           (as in CREATE_SUBSCRIPTION), Subscription Metrics
 *  | In Flight (int64)                 |  8       PURGE_SUBSCRIPTION request: Name
 *  | Delayed (int64)                   | 16         response: Subscription Metrics as they were just before
 *  | Dead (int64)                      | 24         the purge
 *  | Redeliveries (int64)              | 32       REDRIVE request: Subscription, From Offset (int64),
 *  | Oldest Ready Age Millis (int64)   | 40         To Offset (int64, exclusive)
 *  | Acks (int64)                      | 48         response: Moved (int64), Skipped (int64),
 *  | Consumers (int32)                 | 56           Partition Count (int32), Next Offset (int64) each
 *  +-----------------------------------+ 60
 * </pre>
 * Stateless, thread-safe.
 */
public final class SubscriptionDescriptor
{
    public static final int METRICS_LENGTH = 60;

    private SubscriptionDescriptor()
    {
    }

    public static void encodeMetrics(final ByteBuf out, final SubscriptionMetrics metrics)
    {
        out.writeLongLE(metrics.ready());
        out.writeLongLE(metrics.inFlight());
        out.writeLongLE(metrics.delayed());
        out.writeLongLE(metrics.dead());
        out.writeLongLE(metrics.redeliveries());
        out.writeLongLE(metrics.oldestReadyAgeMillis());
        out.writeLongLE(metrics.acks());
        out.writeIntLE(metrics.consumers());
    }

    public static SubscriptionMetrics decodeMetrics(final ByteBuf in)
    {
        final long ready = in.readLongLE();
        final long inFlight = in.readLongLE();
        final long delayed = in.readLongLE();
        final long dead = in.readLongLE();
        final long redeliveries = in.readLongLE();
        final long oldestReadyAgeMillis = in.readLongLE();
        final long acks = in.readLongLE();
        final int consumers = in.readIntLE();
        return new SubscriptionMetrics(ready, inFlight, delayed, dead, redeliveries, oldestReadyAgeMillis, consumers,
            acks);
    }

    public static void encodeDescription(final ByteBuf out, final SubscriptionDescription description)
    {
        Fields.writeString(out, description.name());
        Fields.writeString(out, description.topic());
        QueueDescriptor.encodeSettings(out, description.settings());
        encodeMetrics(out, description.metrics());
    }

    public static SubscriptionDescription decodeDescription(final ByteBuf in)
    {
        final String name = Fields.readString(in);
        final String topic = Fields.readString(in);
        return new SubscriptionDescription(name, topic, QueueDescriptor.decodeSettings(in), decodeMetrics(in));
    }

    public static void encodeRedriveResult(final ByteBuf out, final RedriveResult result)
    {
        out.writeLongLE(result.moved());
        out.writeLongLE(result.skipped());
        out.writeIntLE(result.nextOffset().length);
        for (final long next : result.nextOffset())
        {
            out.writeLongLE(next);
        }
    }

    public static RedriveResult decodeRedriveResult(final ByteBuf in)
    {
        final long moved = in.readLongLE();
        final long skipped = in.readLongLE();
        final int count = in.readIntLE();
        if (count < 0 || count > in.readableBytes() / Long.BYTES)
        {
            throw new IndexOutOfBoundsException("partition count " + count + " runs past the frame");
        }
        final long[] next = new long[count];
        for (int p = 0; p < count; p++)
        {
            next[p] = in.readLongLE();
        }
        return new RedriveResult(moved, skipped, next);
    }
}
