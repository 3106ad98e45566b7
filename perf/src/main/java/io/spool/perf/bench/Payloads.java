package io.spool.perf.bench;

import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteBuffer;

/** The values benchmarks write: printable bytes, the same in every record. Stateless. */
public final class Payloads
{
    private Payloads()
    {
    }

    public static byte[] printable(final int length)
    {
        final byte[] value = new byte[length];
        for (int i = 0; i < length; i++)
        {
            value[i] = (byte)('a' + i % 26);
        }
        return value;
    }

    /** The same bytes off-heap, as a producer's own buffer would be. */
    public static UnsafeBuffer direct(final byte[] value)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(ByteBuffer.allocateDirect(value.length));
        buffer.putBytes(0, value);
        return buffer;
    }
}
