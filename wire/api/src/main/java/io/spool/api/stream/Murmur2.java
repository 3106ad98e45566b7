package io.spool.api.stream;

import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Kafka's murmur2 hash (the one its default partitioner uses), so a key lands on the partition a Kafka producer
 * would choose for the same partition count. Stateless, thread-safe.
 */
public final class Murmur2
{
    private static final int SEED = 0x9747b28c;
    private static final int M = 0x5bd1e995;
    private static final int R = 24;

    private Murmur2()
    {
    }

    @SuppressWarnings("fallthrough")
    public static int hash(final byte[] data)
    {
        final int length = data.length;
        int h = SEED ^ length;
        final int whole = length & ~3;
        for (int i = 0; i < whole; i += 4)
        {
            final int k = (data[i] & 0xff) | ((data[i + 1] & 0xff) << 8) | ((data[i + 2] & 0xff) << 16) |
                ((data[i + 3] & 0xff) << 24);
            h = mixWord(h, k);
        }
        switch (length & 3)
        {
            case 3:
                h ^= (data[whole + 2] & 0xff) << 16;
            case 2:
                h ^= (data[whole + 1] & 0xff) << 8;
            case 1:
                h ^= data[whole] & 0xff;
                h *= M;
            default:
                break;
        }
        return finish(h);
    }

    /** Same hash over {@code length} bytes of a buffer, without copying them out. */
    @SuppressWarnings("fallthrough")
    public static int hash(final DirectBuffer buffer, final int offset, final int length)
    {
        int h = SEED ^ length;
        final int whole = length & ~3;
        for (int i = 0; i < whole; i += 4)
        {
            h = mixWord(h, buffer.getInt(offset + i, ByteOrder.LITTLE_ENDIAN));
        }
        final int tail = offset + whole;
        switch (length & 3)
        {
            case 3:
                h ^= (buffer.getByte(tail + 2) & 0xff) << 16;
            case 2:
                h ^= (buffer.getByte(tail + 1) & 0xff) << 8;
            case 1:
                h ^= buffer.getByte(tail) & 0xff;
                h *= M;
            default:
                break;
        }
        return finish(h);
    }

    /** Kafka's {@code Utils.toPositive}: clears the sign bit rather than taking abs, so MIN_VALUE maps to 0. */
    public static int toPositive(final int number)
    {
        return number & 0x7fffffff;
    }

    private static int mixWord(final int h, final int word)
    {
        int k = word * M;
        k ^= k >>> R;
        k *= M;
        return (h * M) ^ k;
    }

    private static int finish(final int hash)
    {
        int h = hash;
        h ^= h >>> 13;
        h *= M;
        h ^= h >>> 15;
        return h;
    }
}
