package io.spool.log.internal.segment;

import io.spool.api.log.RecordDescriptor;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import static io.spool.api.log.RecordDescriptor.*;

/**
 * CRC32C over regions of a buffer, through a view kept for that purpose so nothing is allocated; the JDK computes
 * it with the CPU's CRC32 instructions. Not thread-safe: each thread uses its own {@link CRC32C} and view.
 */
public final class Checksums
{
    private Checksums()
    {
    }

    static int crc32c(final CRC32C crc, final ByteBuffer view, final int start, final int end)
    {
        crc.reset();
        update(crc, view, start, end);
        return (int)crc.getValue();
    }

    /**
     * The checksum of the record framed at {@code position}, over the bytes its version covers (see
     * {@link RecordDescriptor}).
     */
    public static int record(final CRC32C crc, final ByteBuffer view, final int position, final int frameLength,
        final int version)
    {
        if (version == VERSION_1)
        {
            return crc32c(crc, view, position + CRC_START_OFFSET, position + frameLength);
        }
        crc.reset();
        update(crc, view, position + CRC_START_OFFSET, position + OFFSET_OFFSET);
        update(crc, view, position + TIMESTAMP_OFFSET, position + frameLength);
        return (int)crc.getValue();
    }

    private static void update(final CRC32C crc, final ByteBuffer view, final int start, final int end)
    {
        view.clear();
        view.limit(end).position(start);
        crc.update(view);
    }
}
