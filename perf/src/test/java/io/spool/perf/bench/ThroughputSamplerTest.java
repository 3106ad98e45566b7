package io.spool.perf.bench;

import io.spool.perf.report.ThroughputSeries;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ThroughputSamplerTest
{
    @Test
    void theRatesAddUpToTheRecordsDoneBetweenStartAndStop() throws InterruptedException
    {
        final AtomicLong done = new AtomicLong(500);
        final AtomicLong reads = new AtomicLong();
        final CountDownLatch sampledEnough = new CountDownLatch(1);
        final ThroughputSampler sampler = ThroughputSampler.start("test", () ->
        {
            if (reads.incrementAndGet() == 20)
            {
                sampledEnough.countDown();
            }
            return done.addAndGet(7);
        }, TimeUnit.MICROSECONDS.toNanos(100));

        assertThat(sampledEnough.await(30, TimeUnit.SECONDS)).isTrue();
        final ThroughputSeries series = sampler.stop();

        assertThat(series.name()).isEqualTo("test");
        assertThat(series.points()).isGreaterThanOrEqualTo(19);
        assertThat(recordsIn(series)).isCloseTo((double)(done.get() - 507), within(1e-3));
        assertIncreasing(series.seconds());
    }

    @Test
    void aLongRunKeepsEveryOtherSampleWhenTheArraysFillAndStillAddsUp() throws InterruptedException
    {
        final AtomicLong done = new AtomicLong();
        final CountDownLatch sampledEnough = new CountDownLatch(1);
        final ThroughputSampler sampler = ThroughputSampler.start("long", () ->
        {
            final long now = done.addAndGet(3);
            if (now == 3L * (3 * ThroughputSampler.CAPACITY))
            {
                sampledEnough.countDown();
            }
            return now;
        }, 1);

        assertThat(sampledEnough.await(60, TimeUnit.SECONDS)).isTrue();
        final ThroughputSeries series = sampler.stop();

        assertThat(series.points()).isLessThan(ThroughputSampler.CAPACITY);
        assertThat(recordsIn(series)).isCloseTo((double)(done.get() - 3), within(1e-3));
        assertIncreasing(series.seconds());
    }

    /** The rate of each interval times its length: the records done from the first sample to the last. */
    private static double recordsIn(final ThroughputSeries series)
    {
        final double[] seconds = series.seconds();
        final double[] rates = series.recordsPerSec();
        double records = 0;
        double previous = 0;
        for (int i = 0; i < seconds.length; i++)
        {
            records += rates[i] * (seconds[i] - previous);
            previous = seconds[i];
        }
        return records;
    }

    private static void assertIncreasing(final double[] values)
    {
        for (int i = 1; i < values.length; i++)
        {
            assertThat(values[i]).isGreaterThan(values[i - 1]);
        }
    }
}
