package io.spool.log.internal.pipeline;

import io.spool.log.internal.segment.PageCacheFill;
import io.spool.log.internal.segment.Segment;

import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;

/**
 * Faults in the pages of each active segment a little ahead of its writer, on a thread of its own, so the append
 * thread writes into pages already mapped instead of taking a page fault every 4 KiB. A fresh page of a
 * pre-allocated (sparse) segment costs the kernel a fault, a zero-fill and a block reservation: on one thread that
 * is most of an append's time; here it overlaps with the appends.
 * <p>
 * Each chunk is first brought into the page cache by a positional write of zeros ({@link PageCacheFill}), which
 * costs the kernel a fraction of what a store into a hole of the mapping does. Then each of its pages is touched with
 * an atomic compare-and-set of 0 to 0 on one of its words, which is a write to the mapping (so the write fault is
 * taken here) that can never change a byte: if the writer already stored something there the exchange fails and
 * writes nothing. Touches run under the segment's monitor while it is active, and the writer
 * closes (and trims) a segment under the same monitor, so nothing is touched past the end of a trimmed file.
 * <p>
 * The lead doubles, up to the configured bound, for as long as a log keeps growing between visits, and falls back
 * to its minimum when it stops: a log written at a high rate gets the whole bound ahead of it, an idle one keeps no
 * more than its last lead of zero pages. The thread naps whenever every writer is still inside its lead, so it
 * spends its time in the faults it takes, not in watching writers. Thread-safe: logs are added and removed from any thread.
 */
public final class SegmentPrefaulter implements AutoCloseable
{
    public static final int PAGE_BYTES = 4096;
    private static final int MIN_LEAD_BYTES = 256 * 1024;
    private static final int CHUNK_BYTES = 256 * 1024;
    private static final long MIN_PARK_NANOS = 50_000;
    /** An idle prefaulter wakes 20 times a second; a burst of appends after a quiet spell is found within 50 ms. */
    private static final long MAX_PARK_NANOS = 50_000_000;
    private static final Ahead[] NONE = new Ahead[0];

    private final int maxLeadBytes;
    private final Thread thread;
    private volatile Ahead[] logs = NONE;
    private volatile boolean running = true;

    /** @param maxLeadBytes the most bytes faulted in ahead of a writer. */
    public SegmentPrefaulter(final int maxLeadBytes)
    {
        this.maxLeadBytes = Math.max(maxLeadBytes, MIN_LEAD_BYTES);
        this.thread = new Thread(this::run, "spool-prefault");
        thread.setDaemon(true);
        thread.start();
    }

    public synchronized void add(final PartitionWriter log)
    {
        final Ahead[] current = logs;
        final Ahead[] next = Arrays.copyOf(current, current.length + 1);
        next[current.length] = new Ahead(log);
        logs = next;
    }

    public synchronized void remove(final PartitionWriter log)
    {
        logs = Arrays.stream(logs).filter(ahead -> ahead.log != log).toArray(Ahead[]::new);
    }

    private void run()
    {
        long parkNanos = MIN_PARK_NANOS;
        while (running)
        {
            boolean touched = false;
            for (final Ahead ahead : logs)
            {
                touched |= ahead.visit(maxLeadBytes);
            }
            if (touched)
            {
                parkNanos = MIN_PARK_NANOS;
            }
            else
            {
                LockSupport.parkNanos(parkNanos);
                parkNanos = Math.min(parkNanos * 2, MAX_PARK_NANOS);
            }
        }
    }

    @Override
    public void close()
    {
        running = false;
        LockSupport.unpark(thread);
        try
        {
            thread.join();
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** What the prefaulter knows of one log; touched only by the prefaulter thread. */
    private static final class Ahead
    {
        final PartitionWriter log;
        Segment segment;
        int lastSeenPosition;
        int touchedUpTo;
        int leadBytes = MIN_LEAD_BYTES;

        Ahead(final PartitionWriter log)
        {
            this.log = log;
        }

        /** @return whether a page was touched: when none was, the writer has not used up its lead yet. */
        boolean visit(final int maxLeadBytes)
        {
            final Segment active = log.activeSegment();
            if (active == null)
            {
                return false;
            }
            final int position = log.appender.writePosition();
            if (active != segment)
            {
                segment = active;
                touchedUpTo = position;
                lastSeenPosition = -1;
            }
            final boolean grew = position != lastSeenPosition;
            lastSeenPosition = position;
            if (!grew)
            {
                leadBytes = MIN_LEAD_BYTES;
                return false;
            }
            final int from = Math.max(touchedUpTo, position);
            final long to = (long)position + leadBytes;
            leadBytes = Math.min(leadBytes * 2, maxLeadBytes);
            if (to - from < PAGE_BYTES || !active.acquire())
            {
                return false;
            }
            try
            {
                touchedUpTo = active.prefault(from, (int)Math.min(to, Integer.MAX_VALUE), CHUNK_BYTES);
            }
            finally
            {
                active.release();
            }
            return true;
        }
    }
}
