package io.spool.api.log;

import org.agrona.DirectBuffer;

/**
 * The 128-bit MurmurHash3 (x64 variant) of a dedup id, kept as two longs. The dedup index files an id under the
 * first half and checks the second, so two different ids are only ever taken for each other if all 128 bits
 * collide. Thread-safe (stateless).
 */
public final class DedupKey
{
    /** The header that carries a record's dedup id; its presence is flagged by {@link RecordDescriptor#ATTRIBUTE_DEDUP}. */
    public static final String HEADER = "x-dedup-id";

    private static final long C1 = 0x87c37b91114253d5L;
    private static final long C2 = 0x4cf5ad432745937fL;

    private DedupKey()
    {
    }

    /** The first half of the hash of {@code length} bytes at {@code offset}. */
    public static long high(final DirectBuffer buffer, final int offset, final int length)
    {
        return hash(buffer, offset, length, true);
    }

    /** The second half of the hash of {@code length} bytes at {@code offset}. */
    public static long low(final DirectBuffer buffer, final int offset, final int length)
    {
        return hash(buffer, offset, length, false);
    }

    private static long hash(final DirectBuffer buffer, final int offset, final int length, final boolean high)
    {
        long h1 = 0;
        long h2 = 0;
        final int blocks = length / 16;
        for (int i = 0; i < blocks; i++)
        {
            final int at = offset + i * 16;
            long k1 = buffer.getLong(at, java.nio.ByteOrder.LITTLE_ENDIAN);
            long k2 = buffer.getLong(at + 8, java.nio.ByteOrder.LITTLE_ENDIAN);
            k1 *= C1;
            k1 = Long.rotateLeft(k1, 31);
            k1 *= C2;
            h1 ^= k1;
            h1 = Long.rotateLeft(h1, 27);
            h1 += h2;
            h1 = h1 * 5 + 0x52dce729;
            k2 *= C2;
            k2 = Long.rotateLeft(k2, 33);
            k2 *= C1;
            h2 ^= k2;
            h2 = Long.rotateLeft(h2, 31);
            h2 += h1;
            h2 = h2 * 5 + 0x38495ab5;
        }
        long k1 = 0;
        long k2 = 0;
        final int tail = offset + blocks * 16;
        final int rest = length & 15;
        for (int i = rest - 1; i >= 8; i--)
        {
            k2 ^= (buffer.getByte(tail + i) & 0xFFL) << ((i - 8) * 8);
        }
        for (int i = Math.min(rest, 8) - 1; i >= 0; i--)
        {
            k1 ^= (buffer.getByte(tail + i) & 0xFFL) << (i * 8);
        }
        if (rest > 8)
        {
            k2 *= C2;
            k2 = Long.rotateLeft(k2, 33);
            k2 *= C1;
            h2 ^= k2;
        }
        if (rest > 0)
        {
            k1 *= C1;
            k1 = Long.rotateLeft(k1, 31);
            k1 *= C2;
            h1 ^= k1;
        }
        h1 ^= length;
        h2 ^= length;
        h1 += h2;
        h2 += h1;
        h1 = fmix(h1);
        h2 = fmix(h2);
        h1 += h2;
        h2 += h1;
        return high ? h1 : h2;
    }

    private static long fmix(long k)
    {
        k ^= k >>> 33;
        k *= 0xff51afd7ed558ccdL;
        k ^= k >>> 33;
        k *= 0xc4ceb9fe1a85ec53L;
        k ^= k >>> 33;
        return k;
    }
}
