package io.spool.wire;

import io.netty.buffer.ByteBuf;
import io.spool.queue.Receipt;
import io.spool.queue.RetentionMode;
import io.spool.queue.StartPosition;
import io.spool.queue.SubscriptionSettings;
import org.agrona.DirectBuffer;

/**
 * Bodies of the queue operations. Strings are a uint16 byte count and UTF-8 bytes.
 * <pre>
 *  Subscription Settings                         Receipt (16 bytes)
 *  +-----------------------------------+         +-----------------------------------+
 *  | Lock Timeout Millis (int64)       |  0      | Partition (int32)                 |  0
 *  | Delivery Limit (int32, -1 = none) |  8      | Offset (int64)                    |  4
 *  | Dead Letter Topic (string, "" =   | 12      | Delivery Number (int32)           | 12
 *  |   none)                           |         +-----------------------------------+
 *  | Retention Mode (int8: 0 work      |
 *  |   queue, 1 none)                  |         Delivery
 *  | Start Kind (int8: 0 earliest,     |         +-----------------------------------+
 *  |   1 latest, 2 offset, 3 time)     |         | Receipt (16 bytes)                |  0
 *  | Start Value (int64)               |         | Redelivered (int8)                | 16
 *  +-----------------------------------+         | Timestamp (int64)                 | 17
 *                                                | Key Length (int32, -1 = null)     | 25
 *  CREATE_SUBSCRIPTION: Name, Topic, Settings    | Headers Length (int32)            | 29
 *  DELETE_SUBSCRIPTION: Name                     | Value Length (int32, -1 = null)   | 33
 *  LIST_SUBSCRIPTIONS: empty; response: Count    | Key, Headers, Value bytes        ... 37
 *    (int32) and Names                           +-----------------------------------+
 *
 *  RECEIVE: Subscription, Max (int32), Wait Millis (int64); response: Count (int32), Deliveries
 *  SETTLE: Subscription, Kind (int8, see SettleKind), Argument Millis (int64), Count (int32), Receipts;
 *    response: Failed Count (int32), then per failure its Receipt and an error body (ErrorDescriptor)
 *  CONSUME: Subscription, Consumer Tag (int32, chosen by the client, unique on the connection), Prefetch
 *    (int32), Auto Ack (int8); response: empty. Deliveries may arrive before the response.
 *  CONSUMER_SETTLE: Consumer Tag (int32), Kind (int8, see SettleKind), Argument Millis (int64), Count (int32),
 *    Receipts; no response unless refused whole (unknown tag, bad kind); a refused receipt comes as
 *    SETTLEMENT_REFUSED
 *  DELIVERY (server to client, correlation id = consumer tag): a Delivery
 *  SETTLEMENT_REFUSED (server to client, correlation id = consumer tag): Receipt, error body
 *  LOCK_EXPIRED (server to client, correlation id = consumer tag): Receipt of a delivery held past its lock
 *  CANCEL: Consumer Tag (int32); response: empty
 * </pre>
 * <p>
 * Stateless, thread-safe.
 */
public final class QueueDescriptor
{
    public static final int RECEIPT_LENGTH = 16;
    public static final int DELIVERY_FIXED_LENGTH = 37;
    /** CONSUMER_SETTLE body before its receipts: tag, kind, argument, count. */
    public static final int CONSUMER_SETTLE_FIXED_LENGTH = 4 + 1 + 8 + 4;

    /** What a settlement does to the deliveries it names; its argument is a delay (NACK_DELAYED) or a lock (EXTEND). */
    public enum SettleKind
    {
        ACK, NACK, NACK_DELAYED, REJECT, EXTEND;

        private static final SettleKind[] VALUES = values();

        /**
         * @throws IllegalArgumentException for a code no kind has.
         */
        public static SettleKind of(final int code)
        {
            if (code < 0 || code >= VALUES.length)
            {
                throw new IllegalArgumentException("unknown settlement kind " + code);
            }
            return VALUES[code];
        }
    }

    private QueueDescriptor()
    {
    }

    public static void encodeSettings(final ByteBuf out, final SubscriptionSettings settings)
    {
        out.writeLongLE(settings.lockTimeoutMillis());
        out.writeIntLE(settings.deliveryLimit());
        Fields.writeString(out, settings.deadLetterTopic() == null ? "" : settings.deadLetterTopic());
        out.writeByte(settings.retentionMode().ordinal());
        out.writeByte(settings.startPosition().kind().ordinal());
        out.writeLongLE(settings.startPosition().value());
    }

    /**
     * @throws io.spool.queue.InvalidSettingsException when a setting is out of range.
     * @throws IllegalArgumentException for an unknown retention mode or start kind.
     */
    public static SubscriptionSettings decodeSettings(final ByteBuf in)
    {
        final SubscriptionSettings.Builder builder = SubscriptionSettings.builder()
            .lockTimeoutMillis(in.readLongLE())
            .deliveryLimit(in.readIntLE());
        final String deadLetterTopic = Fields.readString(in);
        builder.deadLetterTopic(deadLetterTopic.isEmpty() ? null : deadLetterTopic);
        final int retention = in.readUnsignedByte();
        final int startKind = in.readUnsignedByte();
        final long startValue = in.readLongLE();
        if (retention >= RetentionMode.values().length || startKind >= StartPosition.Kind.values().length)
        {
            throw new IllegalArgumentException("unknown retention mode " + retention + " or start kind " + startKind);
        }
        builder.retentionMode(RetentionMode.values()[retention]);
        switch (StartPosition.Kind.values()[startKind])
        {
            case EARLIEST:
                builder.startPosition(StartPosition.earliest());
                break;
            case LATEST:
                builder.startPosition(StartPosition.latest());
                break;
            case OFFSET:
                builder.startPosition(StartPosition.offset(startValue));
                break;
            default:
                builder.startPosition(StartPosition.timestamp(startValue));
                break;
        }
        return builder.build();
    }

    public static void encodeReceipt(final ByteBuf out, final int partition, final long offset,
        final int deliveryNumber)
    {
        out.writeIntLE(partition);
        out.writeLongLE(offset);
        out.writeIntLE(deliveryNumber);
    }

    public static Receipt decodeReceipt(final ByteBuf in)
    {
        return new Receipt(in.readIntLE(), in.readLongLE(), in.readIntLE());
    }

    /** Writes one delivery, copying key, headers and value from {@code buffer}. */
    public static void encodeDelivery(final ByteBuf out, final int partition, final long offset,
        final int deliveryNumber, final boolean redelivered, final long timestamp, final DirectBuffer buffer,
        final int keyOffset, final int keyLength, final int headersOffset, final int headersLength,
        final int valueOffset, final int valueLength)
    {
        encodeReceipt(out, partition, offset, deliveryNumber);
        out.writeByte(redelivered ? 1 : 0);
        out.writeLongLE(timestamp);
        out.writeIntLE(keyLength);
        out.writeIntLE(headersLength);
        out.writeIntLE(valueLength);
        copy(out, buffer, keyOffset, keyLength);
        copy(out, buffer, headersOffset, headersLength);
        copy(out, buffer, valueOffset, valueLength);
    }

    private static void copy(final ByteBuf out, final DirectBuffer buffer, final int offset, final int length)
    {
        if (length <= 0)
        {
            return;
        }
        final int at = out.writerIndex();
        out.ensureWritable(length);
        final java.nio.ByteBuffer target = out.internalNioBuffer(at, length);
        buffer.getBytes(offset, target, target.position(), length);
        out.writerIndex(at + length);
    }
}
