package io.spool.queue.internal.state;

import org.agrona.collections.LongArrayList;

/**
 * Applies what the state files say to a subscription partition's state while it is restored: how far the read
 * cursor got, which messages wait for a delay, which were held by consumers (they come back, redelivered), and which
 * expired ahead of the cursor. Not thread-safe: used by the thread that opens the state.
 */
public final class RestoredStateWriter
{
    private final PartitionCore core;
    private final Delays delays;
    private final Releases releases;
    private final LongArrayList held = new LongArrayList();

    RestoredStateWriter(final PartitionCore core, final Delays delays, final Releases releases)
    {
        this.core = core;
        this.delays = delays;
        this.releases = releases;
    }

    /** Moves the read cursor up to {@code readCursor}; every offset below it was delivered. */
    public void cursor(final long readCursor)
    {
        if (readCursor > core.window.floor())
        {
            core.window.ensureCovers(readCursor - 1);
        }
        core.cursor = Math.max(core.cursor, readCursor);
    }

    /** A delayed message: held by nobody, due at {@code until}. */
    public void delayed(final long offset, final long until)
    {
        delays.hold(offset, until);
    }

    /**
     * A delivered message whose lock stands: held by {@code consumerId} until {@code deadline}, as a state rebuilt
     * from a replicated snapshot must hold it, the same as on the nodes that never stopped.
     */
    public void acquired(final long offset, final int consumerId, final long deadline)
    {
        core.hold(offset, consumerId, deadline);
    }

    /**
     * A delivered message that was held when the process stopped comes back in {@link #finish()}: whether it is
     * ready, expired or over its delivery limit needs its record read (a held message past its time to live expires
     * as it comes back, as it would have had the process not stopped), and the log is not attached yet while the
     * files are replayed.
     */
    public void held(final long offset)
    {
        held.addLong(offset);
    }

    /** Marks a message that expired ahead of the read cursor; the cursor stays. */
    public void expiredAhead(final long offset)
    {
        core.expiry.restoreExpiredAhead(offset);
    }

    /**
     * The end of a restore: counts what expired ahead of the cursor, and the messages held when the process stopped
     * come back: expired if their time to live passed, else dead past their limit, else ready. Then the messages
     * still waiting below the cursor (ready again, delayed, behind their group) are read for their expiry: the
     * read-ahead starts again from the ack floor, and the cursor, once it meets a message, takes every offset below
     * it as read, so one it passed first would never expire.
     */
    public void finish()
    {
        core.expiry.recountExpiredAhead(core.cursor, core.window);
        for (int i = 0; i < held.size(); i++)
        {
            final long offset = held.getLong(i);
            releases.giveBack(offset, core.expiry.hasExpiredOnRestore(offset));
        }
        held.clear();
        core.expiry.readAhead(Integer.MAX_VALUE, core.window, core.cursor, core.cursor);
    }
}
