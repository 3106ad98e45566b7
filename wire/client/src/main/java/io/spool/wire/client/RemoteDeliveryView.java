package io.spool.wire.client;

import io.spool.api.queue.Message;
import io.netty.buffer.ByteBuf;
import io.spool.api.log.HeadersCodec;
import io.spool.api.queue.Receipt;
import io.spool.wire.QueueDescriptor;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Map;

/**
 * A flyweight over one pushed delivery in its frame ({@link QueueDescriptor}): the getters read the frame, and
 * nothing is copied unless asked ({@link #copy()}, {@link #value()}). Valid only during
 * {@link RemoteDeliveryListener#onDelivery}. Not thread-safe.
 */
public final class RemoteDeliveryView implements Message
{
    private static final int ISSUER_OFFSET = 0;
    private static final int PARTITION_OFFSET = 8;
    private static final int OFFSET_OFFSET = 12;
    private static final int DELIVERY_NUMBER_OFFSET = 20;
    private static final int REDELIVERED_OFFSET = 24;
    private static final int TIMESTAMP_OFFSET = 25;
    private static final int KEY_LENGTH_OFFSET = 33;
    private static final int HEADERS_LENGTH_OFFSET = 37;
    private static final int VALUE_LENGTH_OFFSET = 41;

    private String subscription;
    private ByteBuf frame;
    private int start;

    RemoteDeliveryView wrap(final String subscription, final ByteBuf body)
    {
        this.subscription = subscription;
        this.frame = body;
        this.start = body.readerIndex();
        return this;
    }

    public String subscription()
    {
        return subscription;
    }

    /** The random number of the subscription that made the delivery, which its receipt carries. */
    public long issuer()
    {
        return frame.getLongLE(start + ISSUER_OFFSET);
    }

    public int partition()
    {
        return frame.getIntLE(start + PARTITION_OFFSET);
    }

    public long offset()
    {
        return frame.getLongLE(start + OFFSET_OFFSET);
    }

    public int deliveryNumber()
    {
        return frame.getIntLE(start + DELIVERY_NUMBER_OFFSET);
    }

    public boolean redelivered()
    {
        return frame.getByte(start + REDELIVERED_OFFSET) != 0;
    }

    public long timestamp()
    {
        return frame.getLongLE(start + TIMESTAMP_OFFSET);
    }

    /** -1 for a null key. */
    public int keyLength()
    {
        return frame.getIntLE(start + KEY_LENGTH_OFFSET);
    }

    public int headersLength()
    {
        return frame.getIntLE(start + HEADERS_LENGTH_OFFSET);
    }

    /** -1 for a null value. */
    public int valueLength()
    {
        return frame.getIntLE(start + VALUE_LENGTH_OFFSET);
    }

    /** The frame the delivery lies in; read key, headers and value at their indexes without copying. */
    public ByteBuf buffer()
    {
        return frame;
    }

    public int keyIndex()
    {
        return start + QueueDescriptor.DELIVERY_FIXED_LENGTH;
    }

    public int headersIndex()
    {
        return keyIndex() + Math.max(0, keyLength());
    }

    public int valueIndex()
    {
        return headersIndex() + headersLength();
    }

    /** The handle that settles this delivery; allocates. */
    public Receipt receipt()
    {
        return new Receipt(issuer(), partition(), offset(), deliveryNumber());
    }

    /** A copy of the key, or null. Allocates. */
    public byte[] key()
    {
        return copy(keyIndex(), keyLength());
    }

    /** A copy of the value, or null. Allocates. */
    public byte[] value()
    {
        return copy(valueIndex(), valueLength());
    }

    /** The value as UTF-8 text, or null. Allocates. */
    public String valueAsString()
    {
        return valueLength() < 0 ? null : frame.toString(valueIndex(), valueLength(), StandardCharsets.UTF_8);
    }

    /** The decoded headers. Allocates. */
    public Map<String, byte[]> headers()
    {
        final byte[] encoded = copy(headersIndex(), headersLength());
        return encoded.length == 0 ? Collections.emptyMap() :
            HeadersCodec.decode(new UnsafeBuffer(encoded), 0, encoded.length);
    }

    /** A copy that outlives the callback. Allocates. */
    public RemoteDelivery copy()
    {
        return new RemoteDelivery(subscription, issuer(), partition(), offset(), deliveryNumber(), redelivered(),
            timestamp(), key(), headers(), value());
    }

    private byte[] copy(final int index, final int length)
    {
        if (length < 0)
        {
            return null;
        }
        final byte[] bytes = new byte[length];
        frame.getBytes(index, bytes);
        return bytes;
    }
}
