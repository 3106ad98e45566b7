package io.spool.log;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * CRC32C over a region of a direct buffer, through a view kept for that purpose so nothing is allocated; the JDK
 * computes it with the CPU's CRC32 instructions. Not thread-safe: each thread uses its own {@link CRC32C} and view.
 */
final class Checksums
{
    private Checksums()
    {
    }

    static int crc32c(final CRC32C crc, final ByteBuffer view, final int start, final int end)
    {
        view.clear();
        view.limit(end).position(start);
        crc.reset();
        crc.update(view);
        return (int)crc.getValue();
    }
}
