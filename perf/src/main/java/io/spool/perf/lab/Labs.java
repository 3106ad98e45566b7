package io.spool.perf.lab;

import java.util.List;
import java.util.Optional;

/**
 * Every lab, in the order of docs/guide/labs.md. Thread-safe (immutable).
 */
public final class Labs
{
    private static final List<Lab> ALL = List.of(
        new FanoutLab(),
        new AckLab(),
        new PrefetchLab(),
        new PoisonLab(),
        new OrderingLab(),
        new VisibilityLab(),
        new RedriveLab(),
        new FifoLab(),
        new PollingLab(),
        new DelayLab(),
        new ReplayLab());

    private Labs()
    {
    }

    public static List<Lab> all()
    {
        return ALL;
    }

    public static Optional<Lab> named(final String name)
    {
        return ALL.stream().filter(lab -> lab.name().equals(name)).findFirst();
    }
}
