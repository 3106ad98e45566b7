package io.spool.log.internal.segment;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Brings the pages of an active segment's record file into the page cache ahead of its writer, by writing zeros
 * over them with positional writes, and tracks how far that has gone.
 * <p>
 * Design note: the record file is sparse, and the first store through the mapping into a page of a hole costs the
 * kernel a read of the hole (read-ahead zero-filling whole folios) and a block reservation. A positional write of
 * zeros over the same pages costs the kernel a fraction of that, after which a store through the mapping only has
 * to map a page that is already cached and dirty. So pages are
 * filled before anybody stores into them: by the prefaulter ahead of the writer, or by the writer itself when it
 * catches up.
 * <p>
 * The writer stores only below {@link #end()}, and zeros are written only at and above it, so a fill never
 * overwrites a record. Filling is done under the owning segment's monitor, which also serialises it with the roll
 * that trims the file. When a write fails (the disk is full) filling stops and the end stays where the last good
 * write left it, and {@link #failure()} tells why: past the end lie holes that no write has reserved blocks for,
 * and a store through the mapping into one on a full disk would not fail with an error but with a SIGBUS (an
 * {@link InternalError} at some later instruction), so the writer stops there, and a later fill tries again from
 * the end. When an interrupt closed the channel, filling stops for good and the end jumps to the capacity: the
 * writer then stores into the holes as if nothing had been filled, which is slower but still correct.
 * <p>
 * Thread-safe for {@link #end()}; every other method runs under the segment's monitor.
 */
public final class PageCacheFill
{
    public static final int CHUNK_BYTES = 256 * 1024;
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(CHUNK_BYTES).asReadOnlyBuffer();

    private final FileChannel channel;
    private final ByteBuffer zeros = ZEROS.duplicate();
    private final int capacity;
    private volatile int end;
    private volatile IOException failure;

    /**
     * @param end the end of what is already in the page cache (the segment header, or a recovered segment's valid
     *            records): never filled.
     */
    public PageCacheFill(final Path recordFile, final int end, final int capacity) throws IOException
    {
        this.channel = FileChannel.open(recordFile, StandardOpenOption.WRITE);
        this.end = end;
        this.capacity = capacity;
    }

    /** Below this position the pages are cached and no zero will be written again. */
    public int end()
    {
        return end;
    }

    /**
     * Fills from {@link #end()} until it reaches {@code target} (or the capacity), a chunk at a time.
     *
     * @return the new end.
     */
    public int fillTo(final int target)
    {
        final int limit = Math.min(target, capacity);
        int filled = end;
        try
        {
            while (filled < limit)
            {
                final int chunkEnd = Math.min(capacity, (filled & -CHUNK_BYTES) + CHUNK_BYTES);
                zeros.clear().limit(chunkEnd - filled);
                while (zeros.hasRemaining())
                {
                    channel.write(zeros, filled + zeros.position());
                }
                filled = chunkEnd;
                end = filled;
            }
        }
        catch (final ClosedChannelException interrupted)
        {
            // an interrupt closed the channel for good, but left the disk as it was: the writer stores into holes
            stop();
            return end;
        }
        catch (final IOException ex)
        {
            // the channel stays open: once space is freed the next fill goes on from the end
            failure = ex;
            return end;
        }
        failure = null;
        return end;
    }

    /** Why the last fill stopped short of its target, or null when it reached it. */
    public IOException failure()
    {
        return failure;
    }

    /** No more fills: the writer stores into whatever is left of the file as it stands. */
    public void stop()
    {
        end = capacity;
        closeChannel();
    }

    private void closeChannel()
    {
        try
        {
            channel.close();
        }
        catch (final IOException ignored)
        {
            // nothing was promised about the fill, and the writer no longer depends on it
        }
    }
}
