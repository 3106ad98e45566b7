package io.spool.perf.bench;

import io.spool.perf.report.ThroughputSeries;
import io.spool.testing.SlowTest;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@SlowTest
class PassTimerTest
{
    @Test
    void warmsTheReadersUpInAlternationForTheMinimumThenAlternatesTimedPassesUntilEachHadTheMinimum()
    {
        final List<String> calls = new ArrayList<>();
        final long[] warmUpNanos = new long[1];
        final long start = System.nanoTime();
        final PassTimer.Timing[] timings = PassTimer.timeAlternately(
            new PassTimer.Reader("scan", () -> record(calls, "scan", 10), 10, () ->
            {
                warmUpNanos[0] = System.nanoTime() - start;
                calls.add("scan warm");
            }),
            new PassTimer.Reader("replay", () -> record(calls, "replay", 7), 7, () -> calls.add("replay warm")));

        final int scanWarm = calls.indexOf("scan warm");
        assertThat(scanWarm).isEven().isGreaterThan(2);
        for (int i = 0; i < scanWarm; i++)
        {
            assertThat(calls.get(i)).isEqualTo(i % 2 == 0 ? "scan" : "replay");
        }
        assertThat(warmUpNanos[0]).isGreaterThanOrEqualTo(PassTimer.MIN_WARM_UP_NANOS);
        assertThat(calls.subList(scanWarm, scanWarm + 4)).containsExactly("scan warm", "replay warm", "scan", "replay");
        assertThat(timings[0].passes()).isEqualTo(timings[1].passes()).isEqualTo((calls.size() - scanWarm - 2) / 2);
        for (final PassTimer.Timing timing : timings)
        {
            assertThat(timing.meanPassNanos() * timing.passes())
                .isGreaterThanOrEqualTo(PassTimer.MIN_TIMED_NANOS - timing.passes());
        }
    }

    @Test
    void eachReaderGetsItsRateOverTheTimedPassesInAtMostAThousandPoints()
    {
        final PassTimer.Timing[] timings = PassTimer.timeAlternately(
            new PassTimer.Reader("scan", () -> 10, 10, () -> { }),
            new PassTimer.Reader("replay", () -> 7, 7, () -> { }));

        for (int i = 0; i < timings.length; i++)
        {
            final ThroughputSeries series = timings[i].throughput();
            assertThat(series.name()).isEqualTo(i == 0 ? "scan" : "replay");
            assertThat(series.points()).isBetween(Math.min(timings[i].passes(), 512), 1024);
            assertThat(series.seconds()).isSorted();
            assertThat(Arrays.stream(series.recordsPerSec()).min().orElseThrow()).isPositive();
            assertThat(series.seconds()[series.points() - 1]).isGreaterThanOrEqualTo(PassTimer.MIN_TIMED_NANOS / 1e9);
        }
    }

    @Test
    void aPassThatReadsAnotherNumberOfRecordsIsAnError()
    {
        assertThatThrownBy(() -> PassTimer.timeAlternately(new PassTimer.Reader("replay", () -> 9, 10, () -> { })))
            .isInstanceOf(IllegalStateException.class)
            .hasMessage("replay read 9 records, 10 were written");
    }

    private static long record(final List<String> calls, final String reader, final long records)
    {
        calls.add(reader);
        return records;
    }
}
