package io.spool.cluster;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.spool.api.InvalidRequestException;
import io.spool.api.SpoolException;
import io.spool.api.queue.AlreadySettledException;
import io.spool.api.queue.StaleReceiptException;
import io.spool.api.queue.UnknownDeliveryException;
import io.spool.api.queue.UnknownSubscriptionException;
import io.spool.queue.ReplicatedPartitionState.Delivered;
import io.spool.wire.Fields;
import org.apache.ratis.protocol.Message;
import org.apache.ratis.thirdparty.com.google.protobuf.ByteString;

import java.util.ArrayList;
import java.util.List;

/**
 * The queue entries a partition's group orders, and their replies; the layout rules are
 * {@link ClusterEntryDescriptor}'s (little endian, strings as a uint16 count and UTF-8).
 * <pre>
 *  CREATE_SUBSCRIPTION (Type 4)        RECEIVE (Type 5)                 SETTLE (Type 6)
 *  | Version | Type            |       | Version | Type           |     | Version | Type             |
 *  | Subscription (string)     |       | Subscription (string)    |     | Subscription (string)      |
 *  | Time (int64)              |       | Time (int64)             |     | Time (int64)               |
 *  | Lock Timeout ms (int64)   |       | Max (int32)              |     | Action (int8: 1 ack, 2 nack|
 *  | Delivery Limit (int32)    |       | Lock ms (int64)          |     |   3 reject, 4 extend)      |
 *  | Dead-Letter Topic (string,|                                        | Offset (int64)             |
 *  |   empty for none; absent  |                                        | Delivery Number (int32)    |
 *  |   in older entries)       |                                        | Argument (int64: a nack's  |
 *                                                                       |   delay, an extend's lock) |
 *  DEAD_LETTER_COPIED (Type 9)
 *  | Version | Type | Subscription (string) | Time (int64) | Ordinal (int64: the copy the dead-letter topic stored) |
 *  reply
 *  | Status (int8: 0 done, 2 refused) | Refusal (int8, REFUSAL_*) | Problem (string) |
 *  | Value (int64: an extend's new deadline) | Count (int32) | per delivery: Offset (int64), Number (int32) |
 * </pre>
 * Time is the leader's clock when the entry was proposed: every node judges locks and delays by it, never by its
 * own clock ({@code docs/decisions/016-queue-state-in-the-partition-group.md}). Stateless, thread-safe.
 */
final class QueueEntryDescriptor
{
    static final int TYPE_CREATE_SUBSCRIPTION = 4;
    static final int TYPE_RECEIVE = 5;
    static final int TYPE_SETTLE = 6;
    /** Types 7 and 8 are Kafka's ({@link KafkaEntryDescriptor}). */
    static final int TYPE_DEAD_LETTER_COPIED = 9;

    static final int ACTION_ACK = 1;
    static final int ACTION_NACK = 2;
    static final int ACTION_REJECT = 3;
    static final int ACTION_EXTEND = 4;

    static final int REFUSAL_INVALID = 1;
    static final int REFUSAL_UNKNOWN_SUBSCRIPTION = 2;
    static final int REFUSAL_SUBSCRIPTION_EXISTS = 3;
    static final int REFUSAL_STALE_RECEIPT = 4;
    static final int REFUSAL_ALREADY_SETTLED = 5;
    static final int REFUSAL_UNKNOWN_DELIVERY = 6;

    private QueueEntryDescriptor()
    {
    }

    /** @param deadLetterTopic the replicated topic dead messages are copied to, or null for none. */
    record CreateSubscription(String subscription, long timeMillis, long lockTimeoutMillis, int deliveryLimit,
        String deadLetterTopic)
    {
    }

    record Receive(String subscription, long timeMillis, int max, long lockMillis)
    {
    }

    record Settle(String subscription, long timeMillis, int action, long offset, int deliveryNumber, long argument)
    {
    }

    /** The dead-letter topic confirmed the copy of the subscription's dead letter {@code ordinal}. */
    record DeadLetterCopied(String subscription, long timeMillis, long ordinal)
    {
    }

    /**
     * A queue entry's answer: done (with deliveries, or an extend's deadline) or refused, saying why; a refusal
     * naming a subscription (unknown, exists) has the subscription's name as its problem.
     */
    record QueueReply(int refusal, String problem, long value, List<Delivered> deliveries)
    {
        static QueueReply done(final long value, final List<Delivered> deliveries)
        {
            return new QueueReply(0, "", value, deliveries);
        }

        static QueueReply refused(final int refusal, final String problem)
        {
            return new QueueReply(refusal, problem, -1, List.of());
        }

        /** The refusal as the exception the queue layer throws for it, so a cluster caller catches the same. */
        SpoolException toException()
        {
            return switch (refusal)
            {
                case REFUSAL_UNKNOWN_SUBSCRIPTION -> new UnknownSubscriptionException(problem);
                case REFUSAL_STALE_RECEIPT -> new StaleReceiptException(problem);
                case REFUSAL_ALREADY_SETTLED -> new AlreadySettledException(problem);
                case REFUSAL_UNKNOWN_DELIVERY -> new UnknownDeliveryException(problem);
                default -> new InvalidRequestException(problem);
            };
        }

        /** The refusal code of an exception the queue layer threw. */
        static QueueReply refusedBy(final SpoolException refused)
        {
            final int refusal;
            if (refused instanceof StaleReceiptException)
            {
                refusal = REFUSAL_STALE_RECEIPT;
            }
            else if (refused instanceof AlreadySettledException)
            {
                refusal = REFUSAL_ALREADY_SETTLED;
            }
            else if (refused instanceof UnknownDeliveryException)
            {
                refusal = REFUSAL_UNKNOWN_DELIVERY;
            }
            else
            {
                refusal = REFUSAL_INVALID;
            }
            return refused(refusal, refused.getMessage());
        }
    }

    static Message createSubscription(final CreateSubscription create)
    {
        final ByteBuf out = start(TYPE_CREATE_SUBSCRIPTION, create.subscription(), create.timeMillis());
        out.writeLongLE(create.lockTimeoutMillis());
        out.writeIntLE(create.deliveryLimit());
        Fields.writeString(out, create.deadLetterTopic() == null ? "" : create.deadLetterTopic());
        return ClusterEntryDescriptor.toMessage(out);
    }

    static Message deadLetterCopied(final DeadLetterCopied copied)
    {
        final ByteBuf out = start(TYPE_DEAD_LETTER_COPIED, copied.subscription(), copied.timeMillis());
        out.writeLongLE(copied.ordinal());
        return ClusterEntryDescriptor.toMessage(out);
    }

    static Message receive(final Receive receive)
    {
        final ByteBuf out = start(TYPE_RECEIVE, receive.subscription(), receive.timeMillis());
        out.writeIntLE(receive.max());
        out.writeLongLE(receive.lockMillis());
        return ClusterEntryDescriptor.toMessage(out);
    }

    static Message settle(final Settle settle)
    {
        final ByteBuf out = start(TYPE_SETTLE, settle.subscription(), settle.timeMillis());
        out.writeByte(settle.action());
        out.writeLongLE(settle.offset());
        out.writeIntLE(settle.deliveryNumber());
        out.writeLongLE(settle.argument());
        return ClusterEntryDescriptor.toMessage(out);
    }

    private static ByteBuf start(final int type, final String subscription, final long timeMillis)
    {
        final ByteBuf out = Unpooled.buffer(64 + subscription.length() * 3);
        out.writeByte(ClusterEntryDescriptor.VERSION);
        out.writeByte(type);
        Fields.writeString(out, subscription);
        out.writeLongLE(timeMillis);
        return out;
    }

    /** Whether a write entry is a queue entry, whose time the leader stamps. */
    static boolean isQueueEntry(final ByteString entry)
    {
        return isQueueType(ClusterEntryDescriptor.type(entry));
    }

    /** Whether an entry of {@code type} ({@link ClusterEntryDescriptor#type}) is a queue entry. */
    static boolean isQueueType(final int type)
    {
        return type >= TYPE_CREATE_SUBSCRIPTION && type <= TYPE_SETTLE || type == TYPE_DEAD_LETTER_COPIED;
    }

    /** The entry with its time replaced by {@code timeMillis}: the leader's clock, when it proposes the entry. */
    static ByteString stamped(final ByteString entry, final long timeMillis)
    {
        final ByteBuf out = Unpooled.wrappedBuffer(entry.toByteArray());
        final int subscriptionLength = out.getUnsignedShortLE(2);
        out.setLongLE(4 + subscriptionLength, timeMillis);
        return ByteString.copyFrom(out.array());
    }

    static CreateSubscription decodeCreateSubscription(final ByteString entry)
    {
        final ByteBuf in = body(entry);
        final String subscription = Fields.readString(in);
        final long timeMillis = in.readLongLE();
        final long lockTimeoutMillis = in.readLongLE();
        final int deliveryLimit = in.readIntLE();
        final String deadLetterTopic = in.isReadable() ? Fields.readString(in) : "";
        return new CreateSubscription(subscription, timeMillis, lockTimeoutMillis, deliveryLimit,
            deadLetterTopic.isEmpty() ? null : deadLetterTopic);
    }

    static DeadLetterCopied decodeDeadLetterCopied(final ByteString entry)
    {
        final ByteBuf in = body(entry);
        return new DeadLetterCopied(Fields.readString(in), in.readLongLE(), in.readLongLE());
    }

    static Receive decodeReceive(final ByteString entry)
    {
        final ByteBuf in = body(entry);
        return new Receive(Fields.readString(in), in.readLongLE(), in.readIntLE(), in.readLongLE());
    }

    static Settle decodeSettle(final ByteString entry)
    {
        final ByteBuf in = body(entry);
        return new Settle(Fields.readString(in), in.readLongLE(), in.readByte(), in.readLongLE(), in.readIntLE(),
            in.readLongLE());
    }

    private static ByteBuf body(final ByteString entry)
    {
        final ByteBuf in = Unpooled.wrappedBuffer(entry.asReadOnlyByteBuffer());
        in.skipBytes(2);
        return in;
    }

    static Message reply(final QueueReply reply)
    {
        final ByteBuf out = Unpooled.buffer(32 + reply.deliveries().size() * 12);
        out.writeByte(reply.refusal() == 0 ? ClusterEntryDescriptor.STATUS_STORED :
            ClusterEntryDescriptor.STATUS_REFUSED);
        out.writeByte(reply.refusal());
        Fields.writeString(out, reply.problem());
        out.writeLongLE(reply.value());
        out.writeIntLE(reply.deliveries().size());
        for (final Delivered delivered : reply.deliveries())
        {
            out.writeLongLE(delivered.offset());
            out.writeIntLE(delivered.deliveryNumber());
        }
        return ClusterEntryDescriptor.toMessage(out);
    }

    static QueueReply decodeReply(final ByteString reply)
    {
        final ByteBuf in = Unpooled.wrappedBuffer(reply.asReadOnlyByteBuffer());
        in.readByte();
        final int refusal = in.readByte();
        final String problem = Fields.readString(in);
        final long value = in.readLongLE();
        final int count = in.readIntLE();
        final List<Delivered> deliveries = new ArrayList<>(count);
        for (int i = 0; i < count; i++)
        {
            deliveries.add(new Delivered(in.readLongLE(), in.readIntLE()));
        }
        return new QueueReply(refusal, problem, value, deliveries);
    }
}
