package io.spool.perf.bench;

import io.spool.api.EngineClosedException;
import org.HdrHistogram.AtomicHistogram;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ProducerConfirmsTest
{
    private final AtomicHistogram latencyNanos = LatencyHistograms.newHistogram();

    @Test
    void splitsTheRecordsIntoFullBatchesAndAShorterLastOne()
    {
        final ProducerConfirms confirms = new ProducerConfirms(10, 4, 2, latencyNanos);

        assertThat(confirms.batchCount()).isEqualTo(3);
        assertThat(confirms.sizeOfBatch(0)).isEqualTo(4);
        assertThat(confirms.sizeOfBatch(2)).isEqualTo(2);
        assertThat(confirms.firstCorrelationOfBatch(2)).isEqualTo(8);
    }

    @Test
    void aBatchCompletesWithTheConfirmOfItsLastRecordAndRecordsOneLatency()
    {
        final ProducerConfirms confirms = new ProducerConfirms(10, 4, 2, latencyNanos);
        confirms.beforePublish(0, System.nanoTime());

        for (long correlation = 0; correlation < 3; correlation++)
        {
            confirms.onConfirmed(correlation, correlation);
        }
        assertThat(confirms.completedRecords()).isZero();
        assertThat(latencyNanos.getTotalCount()).isZero();

        confirms.onConfirmed(3, 3);
        assertThat(confirms.completedRecords()).isEqualTo(4);
        assertThat(latencyNanos.getTotalCount()).isEqualTo(1);
    }

    @Test
    void theShortLastBatchCompletesAtTheLastRecordAndFailuresCount()
    {
        final ProducerConfirms confirms = new ProducerConfirms(10, 4, 2, latencyNanos);
        confirms.onConfirmed(3, 3);
        confirms.onConfirmed(7, 7);

        final EngineClosedException closed = new EngineClosedException("log bench/0");
        confirms.onFailed(8, closed);
        confirms.onFailed(9, closed);

        assertThat(confirms.completedRecords()).isEqualTo(10);
        assertThat(confirms.failedRecords()).isEqualTo(2);
        assertThat(confirms.firstFailure()).isSameAs(closed);
        assertThat(latencyNanos.getTotalCount()).isEqualTo(3);
    }

    @Test
    void theWindowLetsTheProducerOnOnceEnoughBatchesCompleted()
    {
        final ProducerConfirms confirms = new ProducerConfirms(12, 4, 2, latencyNanos);
        confirms.bindProducer();
        confirms.onConfirmed(3, 3);

        confirms.awaitInFlightAtMost(2, 1);
        confirms.onConfirmed(7, 7);
        confirms.onConfirmed(11, 11);
        confirms.awaitInFlightAtMost(3, 0);

        assertThat(confirms.completedRecords()).isEqualTo(12);
    }

    @Test
    void anEndlessRunKeepsPublishTimesInARingAsLargeAsItsWindow()
    {
        final ProducerConfirms confirms = new ProducerConfirms(ProducerConfirms.UNBOUNDED, 4, 3, latencyNanos);
        for (long batch = 0; batch < 100; batch++)
        {
            confirms.beforePublish(batch, System.nanoTime());
            confirms.onConfirmed(confirms.firstCorrelationOfBatch(batch) + 3, batch);
        }

        assertThat(confirms.completedRecords()).isEqualTo(400);
        assertThat(latencyNanos.getTotalCount()).isEqualTo(100);
        assertThat(latencyNanos.getMaxValue()).isLessThan(LatencyHistograms.HIGHEST_TRACKABLE_NANOS);
    }
}
