package io.spool.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Copies one file of a crash image: the same bytes at the same length, but only the bytes up to the last one that is
 * not zero are written, and the zeros after it are a hole. The engine's preallocated files are mostly such zeros (a
 * queue state journal's mapped window grows the file by 16 MiB, a segment is its full size from the start), and
 * writing them was most of a crash's cost. A hole reads as zeros, so recovery, which reads the file and its length,
 * sees exactly what a whole copy holds. Stateless, thread-safe.
 */
final class CrashImageFile
{
    private static final int SCAN_BYTES = 64 * 1024;

    private CrashImageFile()
    {
    }

    /** Copies {@code source} to {@code target}, which must not exist, as the source is now. */
    static void copy(final Path source, final Path target) throws IOException
    {
        try (FileChannel from = FileChannel.open(source, StandardOpenOption.READ);
             FileChannel to = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE))
        {
            final long length = from.size();
            final long content = endOfContent(from, length);
            long copied = 0;
            while (copied < content)
            {
                final long n = from.transferTo(copied, content - copied, to);
                if (n <= 0)
                {
                    throw new IOException(source + " shrank to " + from.size() + " bytes while it was copied");
                }
                copied += n;
            }
            if (length > content)
            {
                to.write(ByteBuffer.allocate(1), length - 1);
            }
        }
    }

    /** Where the file's last byte that is not zero ends, read backwards a chunk at a time; 0 if all are zero. */
    private static long endOfContent(final FileChannel file, final long length) throws IOException
    {
        final ByteBuffer chunk = ByteBuffer.allocateDirect(SCAN_BYTES);
        final ByteBuffer zeros = ByteBuffer.allocateDirect(SCAN_BYTES);
        long chunkEnd = length;
        while (chunkEnd > 0)
        {
            final long chunkStart = Math.max(0, chunkEnd - SCAN_BYTES);
            chunk.clear().limit((int)(chunkEnd - chunkStart));
            while (chunk.hasRemaining() && file.read(chunk, chunkStart + chunk.position()) >= 0)
            {
                continue;
            }
            chunk.flip();
            zeros.clear().limit(chunk.limit());
            if (chunk.mismatch(zeros) >= 0)
            {
                for (int at = chunk.limit() - 1; at >= 0; at--)
                {
                    if (chunk.get(at) != 0)
                    {
                        return chunkStart + at + 1;
                    }
                }
            }
            chunkEnd = chunkStart;
        }
        return 0;
    }
}
