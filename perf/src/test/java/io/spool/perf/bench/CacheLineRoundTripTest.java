package io.spool.perf.bench;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class CacheLineRoundTripTest
{
    @Test
    void measuresATimePerRoundTripAndLeavesNoThreadBehind()
    {
        final long nanos = CacheLineRoundTrip.medianNanos(3, 2_000, TimeUnit.SECONDS.toNanos(5));

        assertThat(nanos).isPositive().isLessThan(TimeUnit.SECONDS.toNanos(5));
        assertThat(Thread.getAllStackTraces().keySet())
            .noneMatch(thread -> thread.getName().equals("spool-round-trip-echo") && thread.isAlive());
    }

    @Test
    void aTryThatRunsOutOfTimeStopsItsEchoThread()
    {
        final long nanos = CacheLineRoundTrip.medianNanos(1, Integer.MAX_VALUE, TimeUnit.MILLISECONDS.toNanos(5));

        assertThat(nanos).isPositive();
        assertThat(Thread.getAllStackTraces().keySet())
            .noneMatch(thread -> thread.getName().equals("spool-round-trip-echo") && thread.isAlive());
    }
}
