package io.spool.model;

import net.jqwik.api.statistics.Statistics;

import java.util.List;

/**
 * The coverage every stateful property demands, so that none passes vacuously: each of its actions ran at least
 * once, and at least a tenth of its sequences restarted or crashed the engine. Called once per try, at its end.
 */
final class CoverageChecks
{
    private static final String RESTARTS = "restart or crash in sequence";
    private static final String ACTION = "action";

    private CoverageChecks()
    {
    }

    /** Labels an action as it runs, for {@link #require}. */
    static void ran(final String action)
    {
        Statistics.label(ACTION).collect(action);
    }

    static void require(final boolean restartedOrCrashed, final List<String> actions)
    {
        Statistics.label(RESTARTS).collect(restartedOrCrashed);
        Statistics.label(RESTARTS).coverage(c -> c.check(true).percentage(p -> p >= 10));
        Statistics.label(ACTION).coverage(c ->
        {
            for (final String action : actions)
            {
                c.check(action).count(n -> n > 0);
            }
        });
    }
}
