package io.spool.queue;

import io.spool.api.log.HeadersCodec;
import io.spool.api.log.RecordView;
import io.spool.api.queue.Message;
import io.spool.api.queue.Receipt;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * One delivery of one message to a consumer: the message (key, headers, value, timestamp, offset) and how it was
 * delivered (delivery number, redelivered flag, receipt). A pushed delivery is one object its consumer reuses,
 * valid only inside {@link DeliveryListener#onDelivery}: keep its {@link #receipt()} to settle it later. A delivery
 * returned by {@link Subscription#receive} belongs to the caller. The key, headers and value lie in {@link #buffer()}
 * at the offsets the getters give. Not thread-safe.
 * <p>
 * Design note: a pushed delivery reads its message through the consumer's view of the log record, which the
 * consumer's reader moves from record to record, so handing the listener the next message of a run writes only its
 * offset here: the rest costs the getters the listener calls, no more.
 */
public final class Delivery implements Message
{
    /** The copy of a received message, or null for a pushed one, which reads {@link #record}. */
    private final ExpandableArrayBuffer copy;
    /** A pushed delivery's message: the view the consumer's reader moves over the log. */
    private RecordView record;
    private String subscription;
    private long issuer;
    private int partition;
    private int deliveryNumber;
    private long firstDeliveryTime;
    private long offset;
    private long timestamp;
    private int keyLength;
    private int headersLength;
    private int valueLength;

    /** A delivery that keeps a copy of its message, for a receive: it outlives the read of the log. */
    public Delivery()
    {
        copy = new ExpandableArrayBuffer(256);
    }

    private Delivery(final ExpandableArrayBuffer copy)
    {
        this.copy = copy;
    }

    /**
     * A delivery that views its message in the log instead of copying it, for a push consumer: it is valid only
     * inside the listener's call, while the consumer's reader holds the record's segment mapped.
     */
    static Delivery viewingTheLog()
    {
        return new Delivery(null);
    }

    /** Copies the message out of the log record and names the delivery; for a delivery that keeps a copy. */
    public void fill(final String subscription, final long issuer, final int partition, final int deliveryNumber,
        final long firstDeliveryTime, final RecordView record)
    {
        names(subscription, issuer, partition, deliveryNumber, firstDeliveryTime);
        this.offset = record.offset();
        this.timestamp = record.timestamp();
        this.keyLength = record.keyLength();
        this.headersLength = record.headersLength();
        this.valueLength = record.valueLength();
        final int length = Math.max(0, keyLength) + headersLength + Math.max(0, valueLength);
        copy.putBytes(0, record.buffer(), record.keyOffset(), length);
    }

    /** Names the deliveries of a run a pushed delivery is about to view, one after the other. */
    void names(final String subscription, final long issuer, final int partition, final int deliveryNumber,
        final long firstDeliveryTime)
    {
        this.subscription = subscription;
        this.issuer = issuer;
        this.partition = partition;
        this.deliveryNumber = deliveryNumber;
        this.firstDeliveryTime = firstDeliveryTime;
    }

    /**
     * A pushed delivery's message is the one {@code view} is on, until the view moves. The offset alone is copied:
     * a receipt or {@link #toString()} taken after the listener's call then reads no memory the consumer's reader
     * may have unmapped since.
     */
    void views(final RecordView view)
    {
        if (record != view)
        {
            record = view;
        }
        offset = view.offset();
    }

    public String subscription()
    {
        return subscription;
    }

    /** The random number of the subscription that made this delivery, which its receipt carries. */
    public long issuer()
    {
        return issuer;
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
        return record != null ? record.timestamp() : timestamp;
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
        return new Receipt(issuer, partition, offset, deliveryNumber);
    }

    /** The bytes of key, headers and value, back to back from {@link #keyOffset()}; see the other getters. */
    public DirectBuffer buffer()
    {
        return record != null ? record.buffer() : copy;
    }

    /** Where the key starts in {@link #buffer()}, and the headers and value after it. */
    public int keyOffset()
    {
        return record != null ? record.keyOffset() : 0;
    }

    /** The key's length, -1 for a null key. */
    public int keyLength()
    {
        return record != null ? record.keyLength() : keyLength;
    }

    public int headersOffset()
    {
        return record != null ? record.headersOffset() : Math.max(0, keyLength);
    }

    public int headersLength()
    {
        return record != null ? record.headersLength() : headersLength;
    }

    public int valueOffset()
    {
        return record != null ? record.valueOffset() : headersOffset() + headersLength;
    }

    /** The value's length, -1 for a null value. */
    public int valueLength()
    {
        return record != null ? record.valueLength() : valueLength;
    }

    /** A copy of the key, or null. */
    public byte[] key()
    {
        return copy(keyOffset(), keyLength());
    }

    /** A copy of the value, or null. */
    public byte[] value()
    {
        return copy(valueOffset(), valueLength());
    }

    /** The value as UTF-8 text, or null. */
    public String valueAsString()
    {
        final int length = valueLength();
        return length < 0 ? null : buffer().getStringWithoutLengthUtf8(valueOffset(), length);
    }

    /** The headers, decoded; allocates. */
    public Map<String, byte[]> headers()
    {
        return HeadersCodec.decode(buffer(), headersOffset(), headersLength());
    }

    /** The first header of that name as UTF-8 text, or null. */
    public String header(final String name)
    {
        final byte[] value = HeadersCodec.find(buffer(), headersOffset(), headersLength(), name);
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    private byte[] copy(final int at, final int length)
    {
        if (length < 0)
        {
            return null;
        }
        final byte[] out = new byte[length];
        buffer().getBytes(at, out);
        return out;
    }

    @Override
    public String toString()
    {
        return "Delivery{" + subscription + " " + partition + "@" + offset + " #" + deliveryNumber + '}';
    }
}
