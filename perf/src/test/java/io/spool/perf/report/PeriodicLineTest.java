package io.spool.perf.report;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PeriodicLineTest
{
    @Test
    void printsOneLineAnIntervalEachFromTheTimeSinceTheStartUntilClosed()
    {
        final StringWriter written = new StringWriter();
        final PrintWriter out = new PrintWriter(written);
        final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        final List<String> lines;
        try (PeriodicLine ignored = PeriodicLine.start(TimeUnit.MILLISECONDS.toNanos(1),
            elapsed -> "elapsed " + elapsed, out))
        {
            while (lines(written).size() < 3 && System.nanoTime() < deadline)
            {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
        }
        lines = lines(written);
        final int printed = lines.size();

        assertThat(printed).isGreaterThanOrEqualTo(3);
        final long[] elapsed = lines.stream().mapToLong(line -> Long.parseLong(line.substring(8))).toArray();
        for (int i = 1; i < elapsed.length; i++)
        {
            assertThat(elapsed[i]).isGreaterThan(elapsed[i - 1]);
        }
        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        assertThat(lines(written)).as("nothing after the close").hasSize(printed);
    }

    @Test
    void anIntervalMustBePositive()
    {
        assertThatThrownBy(() -> PeriodicLine.start(0, elapsed -> "", new PrintWriter(new StringWriter())))
            .isInstanceOf(IllegalArgumentException.class);
    }

    private static List<String> lines(final StringWriter written)
    {
        synchronized (written.getBuffer())
        {
            return written.toString().lines().toList();
        }
    }
}
