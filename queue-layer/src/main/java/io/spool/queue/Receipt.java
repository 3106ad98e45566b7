package io.spool.queue;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

import java.nio.ByteOrder;

/**
 * Names one delivery of one message: partition, offset and delivery number. A receipt stays valid until the
 * message is acked, released, delayed, dead, or its lock expires; after that the state rejects it as stale.
 * Immutable and thread-safe.
 * <p>
 * On the wire a receipt is {@link #ENCODED_LENGTH} little-endian bytes (see {@link #encode}) or a text token
 * {@code partition.offset.delivery} in lower-case hex (see {@link #toToken()}), so a client can hand it back
 * unchanged through any protocol.
 * <pre>
 *   0                   1                   2                   3
 *   0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
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
    public static final int ENCODED_LENGTH = 16;
    private static final int PARTITION_AT = 0;
    private static final int DELIVERY_AT = 4;
    private static final int OFFSET_AT = 8;

    private final int partition;
    private final long offset;
    private final int deliveryNumber;

    /**
     * @throws InvalidRequestException if any part is out of range.
     */
    public Receipt(final int partition, final long offset, final int deliveryNumber)
    {
        if (partition < 0 || offset < 0 || deliveryNumber < 1)
        {
            throw new InvalidRequestException("a receipt needs partition >= 0, offset >= 0 and delivery >= 1, was " +
                partition + ", " + offset + ", " + deliveryNumber);
        }
        this.partition = partition;
        this.offset = offset;
        this.deliveryNumber = deliveryNumber;
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
        final MutableDirectBuffer buffer, final int index, final int partition, final long offset,
        final int deliveryNumber)
    {
        buffer.putInt(index + PARTITION_AT, partition, ByteOrder.LITTLE_ENDIAN);
        buffer.putInt(index + DELIVERY_AT, deliveryNumber, ByteOrder.LITTLE_ENDIAN);
        buffer.putLong(index + OFFSET_AT, offset, ByteOrder.LITTLE_ENDIAN);
    }

    public void encode(final MutableDirectBuffer buffer, final int index)
    {
        encode(buffer, index, partition, offset, deliveryNumber);
    }

    public static int decodePartition(final DirectBuffer buffer, final int index)
    {
        return buffer.getInt(index + PARTITION_AT, ByteOrder.LITTLE_ENDIAN);
    }

    public static int decodeDeliveryNumber(final DirectBuffer buffer, final int index)
    {
        return buffer.getInt(index + DELIVERY_AT, ByteOrder.LITTLE_ENDIAN);
    }

    public static long decodeOffset(final DirectBuffer buffer, final int index)
    {
        return buffer.getLong(index + OFFSET_AT, ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * @throws InvalidRequestException if the bytes do not hold a valid receipt.
     */
    public static Receipt decode(final DirectBuffer buffer, final int index)
    {
        return new Receipt(decodePartition(buffer, index), decodeOffset(buffer, index),
            decodeDeliveryNumber(buffer, index));
    }

    /** The text form, {@code partition.offset.delivery} in hex. */
    public String toToken()
    {
        return Integer.toHexString(partition) + '.' + Long.toHexString(offset) + '.' +
            Integer.toHexString(deliveryNumber);
    }

    /**
     * @throws InvalidRequestException if the token is not three dot-separated hex numbers in range.
     */
    public static Receipt parseToken(final String token)
    {
        final String[] parts = token == null ? new String[0] : token.split("\\.", -1);
        if (parts.length != 3)
        {
            throw new InvalidRequestException("receipt token must be partition.offset.delivery in hex, was '" +
                token + "'");
        }
        try
        {
            return new Receipt(Integer.parseUnsignedInt(parts[0], 16), Long.parseUnsignedLong(parts[1], 16),
                Integer.parseUnsignedInt(parts[2], 16));
        }
        catch (final NumberFormatException ex)
        {
            throw new InvalidRequestException("receipt token must be partition.offset.delivery in hex, was '" +
                token + "': " + ex.getMessage());
        }
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof Receipt && ((Receipt)other).partition == partition &&
            ((Receipt)other).offset == offset && ((Receipt)other).deliveryNumber == deliveryNumber;
    }

    @Override
    public int hashCode()
    {
        return (partition * 31 + Long.hashCode(offset)) * 31 + deliveryNumber;
    }

    @Override
    public String toString()
    {
        return "Receipt{partition=" + partition + ", offset=" + offset + ", delivery=" + deliveryNumber + '}';
    }
}
