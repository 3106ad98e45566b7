package io.spool.perf.bench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PassTimerTest
{
    @Test
    void warmsUpOnceThenTimesPassesForAtLeastTheMinimumAndReportsTheirMean()
    {
        final List<String> calls = new ArrayList<>();
        final PassTimer.Timing timing = PassTimer.time("scan", () ->
        {
            calls.add("pass");
            return 10;
        }, 10, () -> calls.add("warmed up"));

        assertThat(calls.get(0)).isEqualTo("pass");
        assertThat(calls.get(1)).isEqualTo("warmed up");
        assertThat(calls.subList(2, calls.size())).hasSize(timing.passes()).containsOnly("pass");
        assertThat(timing.meanPassNanos() * timing.passes()).isGreaterThanOrEqualTo(
            PassTimer.MIN_TIMED_NANOS - timing.passes());
    }

    @Test
    void aPassThatReadsAnotherNumberOfRecordsIsAnError()
    {
        assertThatThrownBy(() -> PassTimer.time("replay", () -> 9, 10, () -> { }))
            .isInstanceOf(IllegalStateException.class)
            .hasMessage("replay read 9 records, 10 were written");
    }
}
