package io.spool.log;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;

/**
 * What opening an engine found damaged or out of step and what it did about it, one {@link Finding} each: a log cut
 * or with a hole, a small file restored from its copy or rebuilt, state brought back to a log that ends lower than
 * it did, state of a topic that was deleted and created again, and whatever had to be quarantined because nothing
 * could rebuild it. Each finding is logged as a warning as it is added. Empty after a clean open.
 * Thread-safe: the layers add while they open, anyone reads after.
 */
public final class OpenReport
{
    private static final Logger LOGGER = LoggerFactory.getLogger(OpenReport.class);

    /** What the engine did about a finding. */
    public enum Action
    {
        /** A log's torn or corrupt tail was cut, a hole found or an index rebuilt; every record before it kept. */
        LOG_REPAIRED,
        /** A small file failed its checks and its second copy, which passed, was used and rewritten. */
        RESTORED_FROM_COPY,
        /** A small file and its copy failed their checks and the file was rebuilt from what else is on disk. */
        REBUILT,
        /** State pointed past a log's end (recovery cut the log) and was brought back to the new end. */
        MOVED_TO_LOG_END,
        /** State belonged to an earlier topic of the same name and was dropped; it starts afresh. */
        RESET_FOR_NEW_TOPIC,
        /** Nothing could rebuild it: left on disk untouched, not opened, and everything else serves. */
        QUARANTINED
    }

    /**
     * One thing an open found.
     *
     * @param subject what it is about, such as {@code subscription billing partition 0} or {@code topic orders}.
     * @param detail  what was wrong and what it cost.
     */
    public record Finding(Action action, String subject, String detail)
    {
        @Override
        public String toString()
        {
            return action + " " + subject + ": " + detail;
        }
    }

    private final List<Finding> findings = new ArrayList<>();

    public void add(final Action action, final String subject, final String detail)
    {
        final Finding finding = new Finding(action, subject, detail);
        LOGGER.warn("open: " + finding);
        synchronized (findings)
        {
            findings.add(finding);
        }
    }

    /** Every finding, in the order the open made them. */
    public List<Finding> findings()
    {
        synchronized (findings)
        {
            return List.copyOf(findings);
        }
    }

    /** The findings of one kind. */
    public List<Finding> findings(final Action action)
    {
        return findings().stream().filter(finding -> finding.action() == action).toList();
    }

    /** True when nothing was found: every file opened as it was left. */
    public boolean isClean()
    {
        return findings().isEmpty();
    }

    @Override
    public String toString()
    {
        final List<Finding> all = findings();
        if (all.isEmpty())
        {
            return "opened clean";
        }
        final StringBuilder text = new StringBuilder(all.size() + (all.size() == 1 ? " finding" : " findings"));
        for (final Finding finding : all)
        {
            text.append('\n').append(finding);
        }
        return text.toString();
    }
}
