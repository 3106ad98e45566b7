package io.spool.perf.report;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LatencyDistributionTest
{
    @Test
    void theCurveRunsFromTheMinimumThroughTheNinesToTheMaximum()
    {
        final Histogram nanos = new Histogram(3);
        for (int micros = 1; micros <= 10_000; micros++)
        {
            nanos.recordValue(micros * 1_000L);
        }

        final List<LatencyDistribution.Point> points = LatencyDistribution.ofNanos(nanos).points();

        assertThat(points.get(0).percentile()).isZero();
        assertThat(points.get(0).micros()).isCloseTo(1.0, within(0.01));
        assertThat(points).extracting(LatencyDistribution.Point::percentile)
            .isSorted()
            .anySatisfy(p -> assertThat(p).isCloseTo(90.0, within(1e-9)))
            .anySatisfy(p -> assertThat(p).isCloseTo(99.0, within(1e-9)))
            .anySatisfy(p -> assertThat(p).isCloseTo(99.9, within(1e-9)))
            .anySatisfy(p -> assertThat(p).isCloseTo(99.99, within(1e-9)));
        assertThat(points).extracting(LatencyDistribution.Point::micros).isSorted();
        assertThat(points.get(points.size() - 1)).isEqualTo(
            new LatencyDistribution.Point(100.0, nanos.getMaxValue() / 1_000.0));
        assertThat(points).hasSize(4 * 10 + 1 + 1);
    }

    @Test
    void anEmptyHistogramHasNoCurve()
    {
        assertThat(LatencyDistribution.ofNanos(new Histogram(3)).points()).isEmpty();
    }
}
