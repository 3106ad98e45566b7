package io.spool.log;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * What opening a log found and repaired: how much was scanned, where a torn or corrupt tail of the active segment
 * was cut, which holes closed segments have ({@link LogHole}), which indexes were rebuilt. A hole found on an earlier
 * open is listed again but is no new problem. Immutable once the log is open; thread-safe.
 */
public final class RecoveryReport
{
    private final String log;
    private int segments;
    private long records;
    private long truncatedBytes;
    private long truncatedAtOffset = -1;
    private int deletedSegments;
    private int rebuiltIndexes;
    private final List<String> problems = new ArrayList<>();
    private final List<LogHole> holes = new ArrayList<>();

    public RecoveryReport(final String log)
    {
        this.log = log;
    }

    public void segmentScanned(final long records)
    {
        this.segments++;
        this.records += records;
    }

    public void truncated(final long atOffset, final long bytes, final String why)
    {
        if (truncatedAtOffset < 0 || atOffset < truncatedAtOffset)
        {
            truncatedAtOffset = atOffset;
        }
        truncatedBytes += bytes;
        problems.add(why);
    }

    /** A hole in the log; {@code known} when an earlier open found it already. */
    public void hole(final LogHole hole, final boolean known)
    {
        holes.add(hole);
        if (!known)
        {
            problems.add(hole + "; the records after it are kept and readers skip the hole");
        }
    }

    void problem(final String what)
    {
        problems.add(what);
    }

    public void segmentDeleted()
    {
        deletedSegments++;
    }

    public void indexRebuilt(final String which)
    {
        rebuiltIndexes++;
        problems.add("rebuilt " + which);
    }

    public String log()
    {
        return log;
    }

    public int segments()
    {
        return segments;
    }

    public long records()
    {
        return records;
    }

    /** The holes of the log, in offset order, those found on earlier opens included. */
    public List<LogHole> holes()
    {
        return Collections.unmodifiableList(holes);
    }

    /** Bytes past the last valid record that were cut, torn writes and corrupt frames included. */
    public long truncatedBytes()
    {
        return truncatedBytes;
    }

    /** The first offset that was lost to truncation, or -1 when nothing was cut. */
    public long truncatedAtOffset()
    {
        return truncatedAtOffset;
    }

    public int deletedSegments()
    {
        return deletedSegments;
    }

    public int rebuiltIndexes()
    {
        return rebuiltIndexes;
    }

    public List<String> problems()
    {
        return Collections.unmodifiableList(problems);
    }

    /** True when the log opened exactly as it was left: nothing cut, rebuilt or newly found missing. */
    public boolean isClean()
    {
        return problems.isEmpty();
    }

    @Override
    public String toString()
    {
        return "recovered log " + log + ": " + segments + " segments, " + records + " records" +
            (holes.isEmpty() ? "" : ", " + holes.size() + (holes.size() == 1 ? " hole" : " holes")) +
            (isClean() ? ", clean" : ", cut " + truncatedBytes + " bytes from offset " + truncatedAtOffset +
                ", deleted " + deletedSegments + " segments, rebuilt " + rebuiltIndexes + " indexes: " + problems);
    }
}
