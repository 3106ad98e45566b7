package io.spool.stream;

import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.PublishResult;
import io.spool.api.stream.TopicPartition;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import static io.spool.stream.SequencedAppend.Outcome.APPENDED;
import static io.spool.stream.SequencedAppend.Outcome.DUPLICATE;
import static io.spool.stream.SequencedAppend.Outcome.FENCED_EPOCH;
import static io.spool.stream.SequencedAppend.Outcome.OUT_OF_ORDER_SEQUENCE;
import static org.assertj.core.api.Assertions.assertThat;

class ProducerSequencesTest
{
    private static final TopicPartition PARTITION = new TopicPartition("orders", 0);

    private final ProducerSequences sequences = new ProducerSequences(1_700_000_000_000L);
    private final AtomicInteger appends = new AtomicInteger();
    private long nextOffset;

    private Supplier<CompletableFuture<Long>> store(final int records)
    {
        return () ->
        {
            appends.incrementAndGet();
            final long base = nextOffset;
            nextOffset += records;
            return CompletableFuture.completedFuture(base);
        };
    }

    @Test
    void aRetriedBatchIsStoredOnceAndAnsweredWithItsFirstOffset()
    {
        final long producer = sequences.newProducerId();
        assertThat(sequences.append(PARTITION, producer, (short)0, 0, 3, 0, store(3)).outcome()).isEqualTo(APPENDED);
        final SequencedAppend second = sequences.append(PARTITION, producer, (short)0, 3, 2, 0, store(2));
        final SequencedAppend retry = sequences.append(PARTITION, producer, (short)0, 3, 2, 0, store(2));

        assertThat(retry.outcome()).isEqualTo(DUPLICATE);
        assertThat(retry.baseOffset().join()).isEqualTo(second.baseOffset().join()).isEqualTo(3L);
        assertThat(appends).hasValue(2);
    }

    @Test
    void aGapInSequencesIsRefusedAndTheExpectedBatchStillFits()
    {
        final long producer = sequences.newProducerId();
        sequences.append(PARTITION, producer, (short)0, 0, 3, 0, store(3));
        final SequencedAppend gap = sequences.append(PARTITION, producer, (short)0, 5, 1, 0, store(1));

        assertThat(gap.outcome()).isEqualTo(OUT_OF_ORDER_SEQUENCE);
        assertThat(gap.problem()).contains("sequence 5 where 3 was expected");
        assertThat(sequences.append(PARTITION, producer, (short)0, 3, 1, 0, store(1)).outcome()).isEqualTo(APPENDED);
    }

    @Test
    void onlyTheLastFiveBatchesAreRecognisedAsRetries()
    {
        final long producer = sequences.newProducerId();
        for (int batch = 0; batch < 6; batch++)
        {
            sequences.append(PARTITION, producer, (short)0, batch, 1, 0, store(1));
        }
        assertThat(sequences.append(PARTITION, producer, (short)0, 1, 1, 0, store(1)).outcome()).isEqualTo(DUPLICATE);
        assertThat(sequences.append(PARTITION, producer, (short)0, 0, 1, 0, store(1)).outcome())
            .isEqualTo(OUT_OF_ORDER_SEQUENCE);
    }

    @Test
    void anOlderEpochIsFencedAndANewEpochStartsAtSequenceZero()
    {
        final long producer = sequences.newProducerId();
        sequences.append(PARTITION, producer, (short)1, 0, 2, 0, store(2));

        assertThat(sequences.append(PARTITION, producer, (short)0, 2, 1, 0, store(1)).outcome()).isEqualTo(FENCED_EPOCH);
        assertThat(sequences.append(PARTITION, producer, (short)2, 2, 1, 0, store(1)).outcome())
            .isEqualTo(OUT_OF_ORDER_SEQUENCE);
        assertThat(sequences.append(PARTITION, producer, (short)2, 0, 1, 0, store(1)).outcome()).isEqualTo(APPENDED);
    }

    @Test
    void aProducerUnknownToThePartitionStartsAtAnySequenceAndPartitionsAreApart()
    {
        final long producer = sequences.newProducerId();
        assertThat(sequences.append(PARTITION, producer, (short)0, 17, 1, 0, store(1)).outcome()).isEqualTo(APPENDED);
        assertThat(sequences.append(new TopicPartition("orders", 1), producer, (short)0, 0, 1, 0, store(1)).outcome())
            .isEqualTo(APPENDED);
    }

    @Test
    void aBatchThatWasNotStoredCanBeSentAgain()
    {
        final long producer = sequences.newProducerId();
        sequences.append(PARTITION, producer, (short)0, 0, 1, 0, store(1));
        final SequencedAppend failed = sequences.append(PARTITION, producer, (short)0, 1, 1, 0,
            () -> CompletableFuture.failedFuture(new IllegalStateException("disk full")));
        assertThat(failed.baseOffset()).isCompletedExceptionally();

        assertThat(sequences.append(PARTITION, producer, (short)0, 1, 1, 0, store(1)).outcome()).isEqualTo(APPENDED);
        assertThat(appends).hasValue(2);
    }

    @Test
    void sequencesWrapAfterTheLargestInt()
    {
        assertThat(ProducerSequences.lastSequence(Integer.MAX_VALUE - 1, 3)).isEqualTo(0);
        final long producer = sequences.newProducerId();
        sequences.append(PARTITION, producer, (short)0, Integer.MAX_VALUE - 1, 3, 0, store(3));
        assertThat(sequences.append(PARTITION, producer, (short)0, 1, 1, 0, store(1)).outcome()).isEqualTo(APPENDED);
    }

    @Test
    void producerIdsAreUniqueAndAReopenedEngineStartsAbove()
    {
        final long first = sequences.newProducerId();
        assertThat(sequences.newProducerId()).isGreaterThan(first);
        assertThat(new ProducerSequences(1_700_000_000_001L).newProducerId()).isGreaterThan(first);
    }

    @Test
    void aCleanRestartKeepsTheProducersLastBatchesAndIdsMoveOn(@org.junit.jupiter.api.io.TempDir final java.nio.file.Path dir)
    {
        final EngineFixture fixture = new EngineFixture(dir);
        final long producer;
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", EngineFixture.topic(1));
            producer = engine.producerSequences().newProducerId();
            engine.producerSequences().append(PARTITION, producer, (short)0, 0, 1, 0, () -> engine.newProducer()
                .send(ProducerRecord.toPartition("orders", 0, null, EngineFixture.bytes("a")))
                .thenApply(PublishResult::offset)).baseOffset().join();
        }
        try (StreamEngine engine = fixture.open())
        {
            final SequencedAppend retry = engine.producerSequences().append(PARTITION, producer, (short)0, 0, 1, 0,
                store(1));
            assertThat(retry.outcome()).isEqualTo(DUPLICATE);
            assertThat(retry.baseOffset().join()).isZero();
            assertThat(engine.producerSequences().append(PARTITION, producer, (short)0, 2, 1, 0, store(1)).outcome())
                .isEqualTo(OUT_OF_ORDER_SEQUENCE);
            assertThat(engine.producerSequences().newProducerId()).isGreaterThan(producer);
        }
    }
}
