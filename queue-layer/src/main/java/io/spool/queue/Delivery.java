package io.spool.queue;

import io.spool.log.HeadersCodec;
import io.spool.log.RecordView;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One delivery of one message to a consumer: the message (key, headers, value, timestamp, offset) and how it was
 * delivered (delivery number, redelivered flag, receipt). A pushed delivery is one object its consumer reuses,
 * valid only inside {@link DeliveryListener#onDelivery}: keep its {@link #receipt()} to settle it later. A delivery
 * returned by {@link Subscription#receive} belongs to the caller. Not thread-safe.
 */
public final class Delivery
{
    /** The copy of a received message, or null for a pushed one, whose {@link #body} views the log. */
    private final ExpandableArrayBuffer copy;
    private final UnsafeBuffer view;
    private final DirectBuffer body;
    private String subscription;
    private int partition;
    private long offset;
    private long timestamp;
    private int deliveryNumber;
    private long firstDeliveryTime;
    private int keyLength;
    private int headersLength;
    private int valueLength;

    /** A delivery that keeps a copy of its message, for a receive: it outlives the read of the log. */
    Delivery()
    {
        copy = new ExpandableArrayBuffer(256);
        view = null;
        body = copy;
    }

    private Delivery(final UnsafeBuffer view)
    {
        copy = null;
        this.view = view;
        body = view;
    }

    /**
     * A delivery that views its message in the log instead of copying it, for a push consumer: it is valid only
     * inside the listener's call, while the consumer's reader holds the record's segment mapped.
     */
    static Delivery viewingTheLog()
    {
        return new Delivery(new UnsafeBuffer(new byte[0]));
    }

    /** Copies the message out of the log record, or views it there, and names the delivery. */
    void fill(final String subscription, final int partition, final int deliveryNumber,
        final long firstDeliveryTime, final RecordView record)
    {
        this.firstDeliveryTime = firstDeliveryTime;
        this.subscription = subscription;
        this.partition = partition;
        this.offset = record.offset();
        this.timestamp = record.timestamp();
        this.deliveryNumber = deliveryNumber;
        this.keyLength = record.keyLength();
        this.headersLength = record.headersLength();
        this.valueLength = record.valueLength();
        final int length = Math.max(0, keyLength) + headersLength + Math.max(0, valueLength);
        if (copy != null)
        {
            copy.putBytes(0, record.buffer(), record.keyOffset(), length);
        }
        else
        {
            view.wrap(record.buffer(), record.keyOffset(), length);
        }
    }

    public String subscription()
    {
        return subscription;
    }

    public int partition()
    {
        return partition;
    }

    public long offset()
    {
        return offset;
    }

    /** When the message was published (epoch millis). */
    public long timestamp()
    {
        return timestamp;
    }

    /** 1 for the first delivery, counting every delivery since, including those cut short by a crash. */
    public int deliveryNumber()
    {
        return deliveryNumber;
    }

    /** When the message was first delivered (epoch millis): the same on every redelivery, and across restarts. */
    public long firstDeliveryTime()
    {
        return firstDeliveryTime;
    }

    /** True when the message was delivered before (to this or another consumer). */
    public boolean redelivered()
    {
        return deliveryNumber > 1;
    }

    /** The handle that settles this delivery; allocates. */
    public Receipt receipt()
    {
        return new Receipt(partition, offset, deliveryNumber);
    }

    /** The bytes of key, headers and value, back to back; see the offset and length getters. */
    public DirectBuffer buffer()
    {
        return body;
    }

    public int keyLength()
    {
        return keyLength;
    }

    public int headersOffset()
    {
        return Math.max(0, keyLength);
    }

    public int headersLength()
    {
        return headersLength;
    }

    public int valueOffset()
    {
        return headersOffset() + headersLength;
    }

    public int valueLength()
    {
        return valueLength;
    }

    /** A copy of the key, or null. */
    public byte[] key()
    {
        return copy(0, keyLength);
    }

    /** A copy of the value, or null. */
    public byte[] value()
    {
        return copy(valueOffset(), valueLength);
    }

    /** The value as UTF-8 text, or null. */
    public String valueAsString()
    {
        return valueLength < 0 ? null : body.getStringWithoutLengthUtf8(valueOffset(), valueLength);
    }

    /** The headers, decoded; allocates. */
    public Map<String, byte[]> headers()
    {
        return HeadersCodec.decode(body, headersOffset(), headersLength);
    }

    /** The first header of that name as UTF-8 text, or null. */
    public String header(final String name)
    {
        final byte[] value = HeadersCodec.find(body, headersOffset(), headersLength, name);
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    private byte[] copy(final int at, final int length)
    {
        if (length < 0)
        {
            return null;
        }
        final byte[] out = new byte[length];
        body.getBytes(at, out);
        return out;
    }

    @Override
    public String toString()
    {
        return "Delivery{" + subscription + " " + partition + "@" + offset + " #" + deliveryNumber + '}';
    }
}
