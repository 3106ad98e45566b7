package io.spool.wire;

import io.netty.buffer.ByteBuf;
import io.spool.api.queue.GroupKeySource;
import io.spool.api.queue.GroupMode;
import io.spool.api.queue.InvalidSettingsException;
import io.spool.api.queue.OverflowPolicy;
import io.spool.api.queue.Receipt;
import io.spool.api.queue.RetentionMode;
import io.spool.api.queue.RetryPolicy;
import io.spool.api.queue.StartPosition;
import io.spool.api.queue.SubscriptionSettings;
import org.agrona.DirectBuffer;

/**
 * Bodies of the queue operations. Strings are a uint16 byte count and UTF-8 bytes.
 * <pre>
 *  Subscription Settings (every field of SubscriptionSettings; offsets after the dead-letter topic count from
 *  its end, D)
 *  +---------------------------------------------+
 *  | Lock Timeout Millis (int64)                 |  0
 *  | Delivery Limit (int32, -1 = unlimited)      |  8
 *  | Dead Letter Topic (string, "" = none)       | 12
 *  | Retention Mode (int8: 0 work queue, 1 none) | D+0
 *  | Start Kind (int8: 0 earliest, 1 latest,     | D+1
 *  |   2 offset, 3 timestamp)                    |
 *  | Start Value (int64: offset or epoch millis) | D+2
 *  | Group Mode (int8: 0 none, 1 ordered,        | D+10
 *  |   2 key sticky)                             |
 *  | Group Key Source (int8: 0 header,           | D+11
 *  |   1 record key)                             |
 *  | Message TTL Millis (int64, 0 = none)        | D+12
 *  | Single Active Consumer (int8: 0 or 1)       | D+20
 *  | Max Length (int64, -1 = no limit)           | D+21
 *  | Max Bytes (int64, -1 = no limit)            | D+29
 *  | Overflow Policy (int8: 0 drop head,         | D+37
 *  |   1 reject publish, 2 reject publish dlx)   |
 *  | Retry Rungs (uint8, 0 = no ladder)          | D+38
 *  | Retry Delay Millis (int64) per rung         | D+39
 *  +---------------------------------------------+
 *
 *  Receipt (24 bytes)                            Delivery
 *  +-----------------------------------+         +-----------------------------------+
 *  | Issuer (int64)                    |  0      | Receipt (24 bytes)                |  0
 *  | Partition (int32)                 |  8      | Redelivered (int8)                | 24
 *  | Offset (int64)                    | 12      | Timestamp (int64)                 | 25
 *  | Delivery Number (int32)           | 20      | Key Length (int32, -1 = null)     | 33
 *  +-----------------------------------+         | Headers Length (int32)            | 37
 *                                                | Value Length (int32, -1 = null)   | 41
 *                                                | Key, Headers, Value bytes        ... 45
 *                                                +-----------------------------------+
 *
 *  CREATE_SUBSCRIPTION: Name, Topic, Subscription Settings; response: empty
 *  DELETE_SUBSCRIPTION: Name
 *  LIST_SUBSCRIPTIONS: empty; response: Count (int32) and Names
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
 * The settings carry every field so that a subscription created over the wire is the one created embedded. Enum
 * fields travel as the codes listed (their declaration order); the decoder checks a code is known and leaves every
 * range check to {@link SubscriptionSettings.Builder#build}, {@link RetryPolicy#ladder} and {@link StartPosition},
 * so a bad value is refused with the engine's own {@link InvalidSettingsException}. A receipt's issuer is the random
 * number of the subscription that made the delivery ({@link Receipt}): the server hands it out and the client sends
 * it back unchanged, and a receipt of another subscription is refused as the embedded engine refuses it. Protocol
 * version 1 is unreleased: the fields after Start Value, and the receipt's issuer, were added to the layout in place
 * rather than under a new version.
 * <p>
 * Stateless, thread-safe.
 */
public final class QueueDescriptor
{
    public static final int RECEIPT_LENGTH = 24;
    public static final int DELIVERY_FIXED_LENGTH = 45;
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
        out.writeByte(settings.groupMode().ordinal());
        out.writeByte(settings.groupKeySource().ordinal());
        out.writeLongLE(settings.messageTtlMillis());
        out.writeByte(settings.singleActiveConsumer() ? 1 : 0);
        out.writeLongLE(settings.maxLength());
        out.writeLongLE(settings.maxBytes());
        out.writeByte(settings.overflowPolicy().ordinal());
        final RetryPolicy retry = settings.retryPolicy();
        out.writeByte(retry.rungs());
        for (int rung = 1; rung <= retry.rungs(); rung++)
        {
            out.writeLongLE(retry.delayAfter(rung));
        }
    }

    /**
     * @throws InvalidSettingsException when a setting is out of range or an enum code is unknown, naming it.
     * @throws IndexOutOfBoundsException when the body ends early.
     */
    public static SubscriptionSettings decodeSettings(final ByteBuf in)
    {
        final SubscriptionSettings.Builder builder = SubscriptionSettings.builder()
            .lockTimeoutMillis(in.readLongLE())
            .deliveryLimit(in.readIntLE());
        final String deadLetterTopic = Fields.readString(in);
        builder.deadLetterTopic(deadLetterTopic.isEmpty() ? null : deadLetterTopic);
        builder.retentionMode(code(RetentionMode.values(), in.readUnsignedByte(), "retention mode"));
        final StartPosition.Kind startKind = code(StartPosition.Kind.values(), in.readUnsignedByte(), "start kind");
        final long startValue = in.readLongLE();
        builder.startPosition(startPosition(startKind, startValue));
        final GroupMode groupMode = code(GroupMode.values(), in.readUnsignedByte(), "group mode");
        builder.messageGroups(groupMode, code(GroupKeySource.values(), in.readUnsignedByte(), "group key source"));
        builder.messageTtlMillis(in.readLongLE());
        final int singleActive = in.readUnsignedByte();
        if (singleActive > 1)
        {
            throw new InvalidSettingsException("single active consumer must be 0 or 1, was " + singleActive);
        }
        builder.singleActiveConsumer(singleActive == 1);
        final long maxLength = in.readLongLE();
        final long maxBytes = in.readLongLE();
        builder.overflow(maxLength, maxBytes, code(OverflowPolicy.values(), in.readUnsignedByte(), "overflow policy"));
        builder.retryPolicy(retryPolicy(in));
        return builder.build();
    }

    private static StartPosition startPosition(final StartPosition.Kind kind, final long value)
    {
        switch (kind)
        {
            case EARLIEST:
                return StartPosition.earliest();
            case LATEST:
                return StartPosition.latest();
            case OFFSET:
                return StartPosition.offset(value);
            default:
                return StartPosition.timestamp(value);
        }
    }

    /** Zero rungs is {@link RetryPolicy#NONE}; any other count, even past the maximum, goes to the ladder to judge. */
    private static RetryPolicy retryPolicy(final ByteBuf in)
    {
        final int rungs = in.readUnsignedByte();
        if (rungs == 0)
        {
            return RetryPolicy.NONE;
        }
        final long[] delays = new long[rungs];
        for (int rung = 0; rung < rungs; rung++)
        {
            delays[rung] = in.readLongLE();
        }
        return RetryPolicy.ladder(delays);
    }

    /** The builder cannot see a code no constant has, so that one check is the wire's own. */
    private static <E extends Enum<E>> E code(final E[] values, final int code, final String field)
    {
        if (code >= values.length)
        {
            throw new InvalidSettingsException("unknown " + field + " code " + code + ", known are 0 to " +
                (values.length - 1));
        }
        return values[code];
    }

    public static void encodeReceipt(final ByteBuf out, final long issuer, final int partition, final long offset,
        final int deliveryNumber)
    {
        out.writeLongLE(issuer);
        out.writeIntLE(partition);
        out.writeLongLE(offset);
        out.writeIntLE(deliveryNumber);
    }

    public static void encodeReceipt(final ByteBuf out, final Receipt receipt)
    {
        encodeReceipt(out, receipt.issuer(), receipt.partition(), receipt.offset(), receipt.deliveryNumber());
    }

    public static Receipt decodeReceipt(final ByteBuf in)
    {
        return new Receipt(in.readLongLE(), in.readIntLE(), in.readLongLE(), in.readIntLE());
    }

    /** Writes one delivery, copying key, headers and value from {@code buffer}. */
    public static void encodeDelivery(final ByteBuf out, final long issuer, final int partition, final long offset,
        final int deliveryNumber, final boolean redelivered, final long timestamp, final DirectBuffer buffer,
        final int keyOffset, final int keyLength, final int headersOffset, final int headersLength,
        final int valueOffset, final int valueLength)
    {
        encodeReceipt(out, issuer, partition, offset, deliveryNumber);
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
