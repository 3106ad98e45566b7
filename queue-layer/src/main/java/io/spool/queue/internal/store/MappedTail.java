package io.spool.queue.internal.store;

import io.spool.queue.StateStoreConfig;
import org.agrona.DirectBuffer;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;

/**
 * Writes a file's growing tail through a shared mapping, a window at a time ({@link #WINDOW_BYTES} unless the
 * journal is configured otherwise, {@link StateStoreConfig#journalWindowBytes}): a copy into
 * the page cache instead of a system call per write (the positional write was most of a subscription pass's time).
 * What is copied is in the page cache as a positional write's bytes would be, so it survives the process being
 * killed, and forcing the channel forces it to disk. Zeros go ahead of the stores by positional writes,
 * {@link #FILL_BYTES} at a time, so that no store lands on a hole: a store into a hole faults its page in through the
 * kernel's read-ahead, which zero-filled pages all the way toward the window's end and made the queue slower than
 * the system calls did. Mapping a window grows the file to the window's end,
 * so a file left by a crash ends in zeros, which the journal's reader takes as its end. Not thread-safe: owned by the
 * journal's thread.
 */
final class MappedTail implements AutoCloseable
{
    /**
     * A multiple of every page size, so windows start on page boundaries. Large, because mapping a window allocates
     * (the hot path allocates nothing per message, so once per window is the most it may): the file grows ahead of
     * what is written by up to this much, sparse past the zeros written ahead, until the journal cuts it back.
     */
    static final int WINDOW_BYTES = StateStoreConfig.DEFAULT_JOURNAL_WINDOW_BYTES;

    /** Zeros written ahead of the stores at a time: one positional write per 64 KiB of journal. */
    static final int FILL_BYTES = StateStoreConfig.MIN_JOURNAL_WINDOW_BYTES;

    private final FileChannel channel;
    private final int windowBytes;
    private final ByteBuffer zeros = ByteBuffer.allocateDirect(FILL_BYTES);
    /** Where the zeros written ahead end, or the file's content before the first write. */
    private long filledTo;
    private final UnsafeBuffer view = new UnsafeBuffer(0, 0);
    private MappedByteBuffer window;
    private long windowStart = -1;

    /**
     * A tail whose writes go on from {@code contentLength}, the bytes the file holds already, through windows of
     * {@code windowBytes}, a multiple of {@link #FILL_BYTES}.
     */
    MappedTail(final FileChannel channel, final long contentLength, final int windowBytes)
    {
        this.channel = channel;
        this.windowBytes = windowBytes;
        this.filledTo = contentLength;
    }

    /** Copies {@code length} bytes of {@code source} from {@code index} to the file at {@code position}. */
    void write(final long position, final DirectBuffer source, final int index, final int length) throws IOException
    {
        fillThrough(position + length);
        long at = position;
        int from = index;
        int remaining = length;
        while (remaining > 0)
        {
            if (window == null || at < windowStart || at >= windowStart + windowBytes)
            {
                mapWindowAt(at - at % windowBytes);
            }
            final int inWindow = (int)(at - windowStart);
            final int n = Math.min(remaining, windowBytes - inWindow);
            view.putBytes(inWindow, source, from, n);
            at += n;
            from += n;
            remaining -= n;
        }
    }

    /**
     * Writes zeros past what this tail wrote or filled before, up to the multiple of {@link #FILL_BYTES} at or past
     * {@code end}: the file is then always a whole number of steps long, which tells its zeros from a torn write
     * ({@link JournalReader#writtenLength}).
     */
    private void fillThrough(final long end) throws IOException
    {
        while (filledTo < end)
        {
            final long stepEnd = (filledTo / FILL_BYTES + 1) * FILL_BYTES;
            zeros.clear().limit((int)(stepEnd - filledTo));
            while (zeros.hasRemaining())
            {
                filledTo += channel.write(zeros, filledTo);
            }
        }
    }

    private void mapWindowAt(final long start) throws IOException
    {
        unmapWindow();
        window = channel.map(FileChannel.MapMode.READ_WRITE, start, windowBytes);
        view.wrap(window);
        windowStart = start;
    }

    private void unmapWindow()
    {
        if (window != null)
        {
            view.wrap(0, 0);
            IoUtil.unmap(window);
            window = null;
            windowStart = -1;
        }
    }

    /** Lets the window go; the file keeps its length, which the journal then cuts back to what it wrote. */
    @Override
    public void close()
    {
        unmapWindow();
    }
}
