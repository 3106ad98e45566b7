package io.spool.perf.bench;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PassTimerTest
{
    @Test
    void warmsEachReaderUpOnceThenAlternatesTimedPassesUntilEachHadTheMinimum()
    {
        final List<String> calls = new ArrayList<>();
        final PassTimer.Timing[] timings = PassTimer.timeAlternately(
            new PassTimer.Reader("scan", () -> record(calls, "scan", 10), 10, () -> calls.add("scan warm")),
            new PassTimer.Reader("replay", () -> record(calls, "replay", 7), 7, () -> calls.add("replay warm")));

        assertThat(calls.subList(0, 6)).containsExactly("scan", "scan warm", "replay", "replay warm", "scan", "replay");
        assertThat(timings[0].passes()).isEqualTo(timings[1].passes()).isEqualTo((calls.size() - 4) / 2);
        for (final PassTimer.Timing timing : timings)
        {
            assertThat(timing.meanPassNanos() * timing.passes())
                .isGreaterThanOrEqualTo(PassTimer.MIN_TIMED_NANOS - timing.passes());
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
