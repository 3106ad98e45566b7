package io.spool.api.queue;

import io.spool.api.InvalidRequestException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Names one delivery of one message: the subscription that issued it, partition, offset and delivery number. A
 * receipt stays valid until the message is acked, released, delayed, dead, or its lock expires; after that the state
 * rejects it as stale. Immutable and thread-safe.
 * <p>
 * The issuer is a random 64-bit number each subscription draws when it is created and keeps across restarts, so a
 * receipt is bound to the subscription that handed it out: another subscription of the same topic, which may have
 * delivered the same message, refuses it, as it refuses a receipt made up without the number, and a subscription
 * deleted and created again under the same name refuses the receipts of the old one.
 * <p>
 * On the wire a receipt is {@link #ENCODED_LENGTH} little-endian bytes (see {@link #encode}) or a text token
 * {@code issuer.partition.offset.delivery} in lower-case hex (see {@link #toToken()}), so a client can hand it back
 * unchanged through any protocol.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 *  +---------------------------------------------------------------+
 *  |                            issuer                             |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 *  |                           partition                           |
 *  +---------------------------------------------------------------+
 *  |                        delivery number                        |
 *  +---------------------------------------------------------------+
 *  |                            offset                             |
 *  |                                                               |
 *  +---------------------------------------------------------------+
 * </pre>
 */
public final class Receipt
{
    public static final int ENCODED_LENGTH = 24;
    private static final int ISSUER_OFFSET = 0;
    private static final int PARTITION_OFFSET = 8;
    private static final int DELIVERY_NUMBER_OFFSET = 12;
    private static final int LOG_OFFSET_OFFSET = 16;

    private final long issuer;
    private final int partition;
    private final long offset;
    private final int deliveryNumber;

    /**
     * @throws InvalidRequestException if any part is out of range.
     */
    public Receipt(final long issuer, final int partition, final long offset, final int deliveryNumber)
    {
        if (partition < 0 || offset < 0 || deliveryNumber < 1)
        {
            throw new InvalidRequestException("a receipt needs partition >= 0, offset >= 0 and delivery >= 1, was " +
                partition + ", " + offset + ", " + deliveryNumber);
        }
        this.issuer = issuer;
        this.partition = partition;
        this.offset = offset;
        this.deliveryNumber = deliveryNumber;
    }

    /** The random number of the subscription that issued the receipt. */
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

    public int deliveryNumber()
    {
        return deliveryNumber;
    }

    /** Writes the receipt's {@link #ENCODED_LENGTH} bytes without allocating. */
    public static void encode(
        final MutableDirectBuffer buffer, final int index, final long issuer, final int partition, final long offset,
        final int deliveryNumber)
    {
        buffer.putLong(index + ISSUER_OFFSET, issuer, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(index + PARTITION_OFFSET, partition, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(index + DELIVERY_NUMBER_OFFSET, deliveryNumber, ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(index + LOG_OFFSET_OFFSET, offset, ByteOrder.LITTLE_ENDIAN);
    }

    public void encode(final MutableDirectBuffer buffer, final int index)
    {
        encode(buffer, index, issuer, partition, offset, deliveryNumber);
    }

    public static long decodeIssuer(final DirectBuffer buffer, final int index)
    {
        return buffer.getLong(index + ISSUER_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    public static int decodePartition(final DirectBuffer buffer, final int index)
    {
        return buffer.getInt(index + PARTITION_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    public static int decodeDeliveryNumber(final DirectBuffer buffer, final int index)
    {
        return buffer.getInt(index + DELIVERY_NUMBER_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    public static long decodeOffset(final DirectBuffer buffer, final int index)
    {
        return buffer.getLong(index + LOG_OFFSET_OFFSET, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @throws InvalidRequestException if the bytes do not hold a valid receipt.
     */
    public static Receipt decode(final DirectBuffer buffer, final int index)
    {
        return new Receipt(decodeIssuer(buffer, index), decodePartition(buffer, index), decodeOffset(buffer, index),
            decodeDeliveryNumber(buffer, index));
    }

    /** The text form, {@code issuer.partition.offset.delivery} in hex. */
    public String toToken()
    {
        return Long.toHexString(issuer) + '.' + Integer.toHexString(partition) + '.' + Long.toHexString(offset) + '.' +
            Integer.toHexString(deliveryNumber);
    }

    /**
     * @throws InvalidRequestException if the token is not four dot-separated hex numbers in range.
     */
    public static Receipt parseToken(final String token)
    {
        final String[] parts = token == null ? new String[0] : token.split("\\.", -1);
        if (parts.length != 4)
        {
            throw new InvalidRequestException("receipt token must be issuer.partition.offset.delivery in hex, was '" +
                token + "'");
        }
        try
        {
            return new Receipt(Long.parseUnsignedLong(parts[0], 16), Integer.parseUnsignedInt(parts[1], 16),
                Long.parseUnsignedLong(parts[2], 16), Integer.parseUnsignedInt(parts[3], 16));
        }
        catch (final NumberFormatException ex)
        {
            throw new InvalidRequestException("receipt token must be issuer.partition.offset.delivery in hex, was '" +
                token + "': " + ex.getMessage());
        }
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof Receipt && ((Receipt)other).issuer == issuer &&
            ((Receipt)other).partition == partition && ((Receipt)other).offset == offset &&
            ((Receipt)other).deliveryNumber == deliveryNumber;
    }

    @Override
    public int hashCode()
    {
        return ((Long.hashCode(issuer) * 31 + partition) * 31 + Long.hashCode(offset)) * 31 + deliveryNumber;
    }

    /** Leaves the issuer out, so that logs and error messages do not hand it on. */
    @Override
    public String toString()
    {
        return "Receipt{partition=" + partition + ", offset=" + offset + ", delivery=" + deliveryNumber + '}';
    }
}
