package io.spool.queue;

import org.agrona.collections.LongArrayList;

/**
 * Applies what the state files say to a subscription partition's state while it is restored: how far the read
 * cursor got, which messages wait for a delay, which were held by consumers (they come back, redelivered), and which
 * expired ahead of the cursor. Not thread-safe: used by the thread that opens the state.
 */
final class StateRestore
{
    private final PartitionCore core;
    private final Delays delays;
    private final DeadLettering dead;
    private final Releases releases;
    private final LongArrayList overLimit = new LongArrayList();

    StateRestore(final PartitionCore core, final Delays delays, final DeadLettering dead, final Releases releases)
    {
        this.core = core;
        this.delays = delays;
        this.dead = dead;
        this.releases = releases;
    }

    /** Moves the read cursor up to {@code readCursor}; every offset below it was delivered. */
    void cursor(final long readCursor)
    {
        if (readCursor > core.window.floor())
        {
            core.window.ensureCovers(readCursor - 1);
        }
        core.cursor = Math.max(core.cursor, readCursor);
    }

    /** A delayed message: held by nobody, due at {@code until}. */
    void delayed(final long offset, final long until)
    {
        delays.hold(offset, until);
    }

    /**
     * A delivered message that was held when the process stopped comes back. One past its delivery limit waits for
     * {@link #finish()}: whether it dies as expired or as over its limit needs its record read, and the log is not
     * attached yet while the files are replayed.
     */
    void held(final long offset)
    {
        if (dead.isOverLimit(core.window.deliveryCount(offset)))
        {
            overLimit.addLong(offset);
            return;
        }
        releases.giveBack(offset, false);
    }

    /** Marks a message that expired ahead of the read cursor; the cursor stays. */
    void expiredAhead(final long offset)
    {
        core.expiry.restoreExpiredAhead(offset);
    }

    /**
     * The end of a restore: counts what expired ahead of the cursor, and the restored messages past their limit
     * die, expired first.
     */
    void finish()
    {
        core.expiry.recountExpiredAhead(core.cursor, core.window);
        for (int i = 0; i < overLimit.size(); i++)
        {
            final long offset = overLimit.getLong(i);
            releases.giveBack(offset, core.expiry.hasExpiredOnRestore(offset));
        }
        overLimit.clear();
    }
}
