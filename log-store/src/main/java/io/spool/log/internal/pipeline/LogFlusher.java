package io.spool.log.internal.pipeline;

import io.spool.api.log.Durability;
import io.spool.api.log.LogConfig;
import io.spool.log.FileSync;
import io.spool.log.internal.segment.Segment;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * The flush stage of one log: follows what the appender wrote, forces it to disk as the log's durability policy
 * says (group commit: once per pipeline batch, however many records it holds), then publishes the committed end.
 * Runs only on the pipeline's flush thread (and, after the pipeline drained, the closing thread); not thread-safe.
 */
final class LogFlusher
{
    private final Path dir;
    private final Durability durability;
    private final FileSync fileSync;
    private final CommitPublisher committed;

    private Segment segment;
    private int forcedPosition;
    private int pendingEndPosition;
    private long pendingEndOffset;
    private boolean unforced;
    private long lastForceMillis;
    private boolean directoryUnforced = true;
    boolean dirtyInBatch;

    LogFlusher(final Path dir, final LogConfig config, final FileSync fileSync, final CommitPublisher committed,
        final Segment active, final int writtenPosition)
    {
        this.dir = dir;
        this.durability = config.durability();
        this.fileSync = fileSync;
        this.committed = committed;
        this.segment = active;
        this.pendingEndPosition = writtenPosition;
    }

    /**
     * A record of this log ended at {@code endPosition} of {@code appendedTo}; the next offset is {@code endOffset}.
     */
    void noteAppended(final Segment appendedTo, final int endPosition, final long endOffset)
    {
        if (appendedTo != segment)
        {
            moveTo(appendedTo);
        }
        pendingEndPosition = endPosition;
        pendingEndOffset = endOffset;
        unforced = true;
    }

    /**
     * The appender rolled: finish the old segment (force what is left of it, unless durability is none) and drop
     * the writer's reference to it, which may unmap it. A new segment's directory entry is forced too, so a synced
     * record is never in a file the directory forgot.
     */
    private void moveTo(final Segment next)
    {
        if (durability.kind() != Durability.Kind.NONE)
        {
            segment.force(fileSync, forcedPosition, segment.sizeBytes());
            forceDirectory();
        }
        segment.release();
        segment = next;
        forcedPosition = 0;
    }

    /**
     * End of a pipeline batch: force by policy, then make the batch's records readable.
     *
     * @return the number of forces done (0 or 1), for the fsync counter.
     */
    int completeBatch(final long nowMillis)
    {
        dirtyInBatch = false;
        int forces = 0;
        if (durability.kind() == Durability.Kind.EVERY_BATCH ||
            (durability.kind() == Durability.Kind.INTERVAL && nowMillis - lastForceMillis >= durability.intervalMillis()))
        {
            forces = force(nowMillis);
        }
        committed.publishCommitted(pendingEndOffset);
        return forces;
    }

    /**
     * Idle pipeline: an interval log with unforced records past its interval is forced now.
     */
    /** Whether an idle pipeline still owes this log a force: an interval log holding unforced records. */
    boolean awaitsIntervalForce()
    {
        return unforced && durability.kind() == Durability.Kind.INTERVAL;
    }

    int forceIfDue(final long nowMillis)
    {
        if (unforced && durability.kind() == Durability.Kind.INTERVAL &&
            nowMillis - lastForceMillis >= durability.intervalMillis())
        {
            return force(nowMillis);
        }
        return 0;
    }

    private int force(final long nowMillis)
    {
        lastForceMillis = nowMillis;
        if (!unforced)
        {
            return 0;
        }
        if (directoryUnforced)
        {
            forceDirectory();
            directoryUnforced = false;
        }
        segment.force(fileSync, forcedPosition, pendingEndPosition);
        forcedPosition = pendingEndPosition;
        unforced = false;
        return 1;
    }

    /** Forces the log directory and its parent, so the segment files and the directory itself survive a crash. */
    private void forceDirectory()
    {
        try
        {
            fileSync.forceDirectory(dir);
            fileSync.forceDirectory(dir.getParent());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot force log directory " + dir, ex);
        }
    }

    /** Closing: force what the policy promised, then drop the writer's reference. */
    void releaseSegment()
    {
        if (segment != null)
        {
            if (durability.kind() != Durability.Kind.NONE && unforced)
            {
                force(0);
            }
            segment.release();
            segment = null;
        }
    }
}
