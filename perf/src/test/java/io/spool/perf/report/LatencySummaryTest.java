package io.spool.perf.report;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LatencySummaryTest
{
    @Test
    void reportsPercentilesOfNanosecondSamplesInMicroseconds()
    {
        final Histogram nanos = new Histogram(3);
        for (long micros = 1; micros <= 1_000; micros++)
        {
            nanos.recordValue(micros * 1_000);
        }

        final LatencySummary summary = LatencySummary.ofNanos(nanos);

        assertThat(summary.samples()).isEqualTo(1_000);
        assertThat(summary.p50Micros()).isCloseTo(500, within(0.5));
        assertThat(summary.p99Micros()).isCloseTo(990, within(1.0));
        assertThat(summary.p999Micros()).isCloseTo(999, within(1.0));
        assertThat(summary.maxMicros()).isCloseTo(1_000, within(1.0));
    }

    @Test
    void seesARareSlowSampleOnlyInTheHighPercentiles()
    {
        final Histogram nanos = new Histogram(3);
        nanos.recordValueWithCount(10_000, 9_980);
        nanos.recordValueWithCount(5_000_000, 20);

        final LatencySummary summary = LatencySummary.ofNanos(nanos);

        assertThat(summary.p50Micros()).isCloseTo(10, within(0.01));
        assertThat(summary.p99Micros()).isCloseTo(10, within(0.01));
        assertThat(summary.p999Micros()).isCloseTo(5_000, within(5.0));
    }

    @Test
    void reportsZerosWhenNothingWasRecorded()
    {
        assertThat(LatencySummary.ofNanos(new Histogram(3))).isEqualTo(new LatencySummary(0, 0, 0, 0, 0));
    }
}
