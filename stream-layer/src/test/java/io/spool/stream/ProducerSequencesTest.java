package io.spool.stream;

import io.spool.api.log.RecordView;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.PublishResult;
import io.spool.api.stream.TopicPartition;
import io.spool.log.LogReader;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

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

    private IntFunction<CompletableFuture<Long>> store(final int records)
    {
        return from ->
        {
            appends.incrementAndGet();
            final long base = nextOffset;
            nextOffset += records - from;
            return CompletableFuture.completedFuture(base);
        };
    }

    private static List<ProducerRecord> records(final int count)
    {
        final List<ProducerRecord> records = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            records.add(record("k" + i, "v" + i));
        }
        return records;
    }

    @Test
    void aRetriedBatchIsStoredOnceAndAnsweredWithItsFirstOffset()
    {
        final long producer = sequences.newProducerId();
        assertThat(sequences.append(PARTITION, producer, (short)0, 0, records(3), store(3)).outcome())
            .isEqualTo(APPENDED);
        final SequencedAppend second = sequences.append(PARTITION, producer, (short)0, 3, records(2), store(2));
        final SequencedAppend retry = sequences.append(PARTITION, producer, (short)0, 3, records(2), store(2));

        assertThat(retry.outcome()).isEqualTo(DUPLICATE);
        assertThat(retry.baseOffset().join()).isEqualTo(second.baseOffset().join()).isEqualTo(3L);
        assertThat(appends).hasValue(2);
    }

    @Test
    void aGapInSequencesIsRefusedAndTheExpectedBatchStillFits()
    {
        final long producer = sequences.newProducerId();
        sequences.append(PARTITION, producer, (short)0, 0, records(3), store(3));
        final SequencedAppend gap = sequences.append(PARTITION, producer, (short)0, 5, records(1), store(1));

        assertThat(gap.outcome()).isEqualTo(OUT_OF_ORDER_SEQUENCE);
        assertThat(gap.problem()).contains("sequence 5 where 3 was expected");
        assertThat(sequences.append(PARTITION, producer, (short)0, 3, records(1), store(1)).outcome())
            .isEqualTo(APPENDED);
    }

    @Test
    void onlyTheLastFiveBatchesAreRecognisedAsRetries()
    {
        final long producer = sequences.newProducerId();
        for (int batch = 0; batch < 6; batch++)
        {
            sequences.append(PARTITION, producer, (short)0, batch, records(1), store(1));
        }
        assertThat(sequences.append(PARTITION, producer, (short)0, 1, records(1), store(1)).outcome())
            .isEqualTo(DUPLICATE);
        assertThat(sequences.append(PARTITION, producer, (short)0, 0, records(1), store(1)).outcome())
            .isEqualTo(OUT_OF_ORDER_SEQUENCE);
    }

    @Test
    void anOlderEpochIsFencedAndANewEpochStartsAtSequenceZero()
    {
        final long producer = sequences.newProducerId();
        sequences.append(PARTITION, producer, (short)1, 0, records(2), store(2));

        assertThat(sequences.append(PARTITION, producer, (short)0, 2, records(1), store(1)).outcome())
            .isEqualTo(FENCED_EPOCH);
        assertThat(sequences.append(PARTITION, producer, (short)2, 2, records(1), store(1)).outcome())
            .isEqualTo(OUT_OF_ORDER_SEQUENCE);
        assertThat(sequences.append(PARTITION, producer, (short)2, 0, records(1), store(1)).outcome())
            .isEqualTo(APPENDED);
    }

    @Test
    void aProducerUnknownToThePartitionStartsAtAnySequenceAndPartitionsAreApart()
    {
        final long producer = sequences.newProducerId();
        assertThat(sequences.append(PARTITION, producer, (short)0, 17, records(1), store(1)).outcome())
            .isEqualTo(APPENDED);
        assertThat(sequences.append(new TopicPartition("orders", 1), producer, (short)0, 0, records(1), store(1))
            .outcome())
            .isEqualTo(APPENDED);
    }

    @Test
    void aBatchThatWasNotStoredCanBeSentAgain()
    {
        final long producer = sequences.newProducerId();
        sequences.append(PARTITION, producer, (short)0, 0, records(1), store(1));
        final SequencedAppend failed = sequences.append(PARTITION, producer, (short)0, 1, records(1),
            from -> CompletableFuture.failedFuture(new IllegalStateException("disk full")));
        assertThat(failed.baseOffset()).isCompletedExceptionally();

        assertThat(sequences.append(PARTITION, producer, (short)0, 1, records(1), store(1)).outcome())
            .isEqualTo(APPENDED);
        assertThat(appends).hasValue(2);
    }

    @Test
    void sequencesWrapAfterTheLargestInt()
    {
        assertThat(ProducerSequences.lastSequence(Integer.MAX_VALUE - 1, 3)).isEqualTo(0);
        final long producer = sequences.newProducerId();
        sequences.append(PARTITION, producer, (short)0, Integer.MAX_VALUE - 1, records(3), store(3));
        assertThat(sequences.append(PARTITION, producer, (short)0, 1, records(1), store(1)).outcome())
            .isEqualTo(APPENDED);
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
        final List<ProducerRecord> batch = List.of(ProducerRecord.toPartition("orders", 0, null,
            EngineFixture.bytes("a")));
        final long producer;
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", EngineFixture.topic(1));
            producer = engine.producerSequences().newProducerId();
            engine.producerSequences().append(PARTITION, producer, (short)0, 0, batch, from -> engine.newProducer()
                .send(batch.get(0)).thenApply(PublishResult::offset)).baseOffset().join();
        }
        try (StreamEngine engine = fixture.open())
        {
            final SequencedAppend retry = engine.producerSequences().append(PARTITION, producer, (short)0, 0, batch,
                store(1));
            assertThat(retry.outcome()).isEqualTo(DUPLICATE);
            assertThat(retry.baseOffset().join()).isZero();
            assertThat(engine.producerSequences().append(PARTITION, producer, (short)0, 2, records(1), store(1))
                .outcome())
                .isEqualTo(OUT_OF_ORDER_SEQUENCE);
            assertThat(engine.producerSequences().newProducerId()).isGreaterThan(producer);
        }
    }

    /**
     * A batch larger than a pipeline slot is written a slot at a time; a crash between two of its slots leaves its
     * first records in the log, with no journal entry saying so. A clean close of an engine whose batch never
     * completed leaves the same journal and log.
     */
    @Test
    void theRetryOfABatchWhoseFirstRecordsACrashLeftInTheLogStoresOnlyTheRest(
        @org.junit.jupiter.api.io.TempDir final java.nio.file.Path dir)
    {
        final EngineFixture fixture = new EngineFixture(dir);
        final List<ProducerRecord> batch = records(5);
        final long producer;
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", EngineFixture.topic(1));
            producer = engine.producerSequences().newProducerId();
            engine.producerSequences().append(PARTITION, producer, (short)0, 0, batch, from ->
            {
                engine.newProducer().sendBatch(batch.subList(0, 2)).join();
                return new CompletableFuture<>();
            });
        }
        try (StreamEngine engine = fixture.open())
        {
            final SequencedAppend retry = engine.producerSequences().append(PARTITION, producer, (short)0, 0, batch,
                from -> engine.newProducer().sendBatch(batch.subList(from, batch.size()))
                    .thenApply(placed -> placed.get(0).offset()));

            assertThat(retry.baseOffset().join()).as("the batch's first offset").isZero();
            assertThat(engine.topics().endOffset(PARTITION)).as("records stored").isEqualTo(batch.size());
            assertThat(values(engine)).containsExactly("v0", "v1", "v2", "v3", "v4");
        }
    }

    @Test
    void aBatchInFlightAtTheCrashWhoseRecordsDoNotEndTheLogIsStoredWholeByItsRetry(
        @org.junit.jupiter.api.io.TempDir final java.nio.file.Path dir)
    {
        final EngineFixture fixture = new EngineFixture(dir);
        final List<ProducerRecord> cut = records(4);
        final List<ProducerRecord> unwritten = List.of(record("other", "w0"), record("other", "w1"));
        final long cutProducer;
        final long unwrittenProducer;
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("orders", EngineFixture.topic(1));
            cutProducer = engine.producerSequences().newProducerId();
            unwrittenProducer = engine.producerSequences().newProducerId();
            engine.producerSequences().append(PARTITION, unwrittenProducer, (short)0, 0, unwritten,
                from -> new CompletableFuture<>());
            engine.producerSequences().append(PARTITION, cutProducer, (short)0, 0, cut, from ->
            {
                engine.newProducer().sendBatch(cut.subList(0, 3)).join();
                return new CompletableFuture<>();
            });
        }
        try (StreamEngine engine = fixture.open())
        {
            final StreamProducer producer = engine.newProducer();
            final SequencedAppend whole = engine.producerSequences().append(PARTITION, unwrittenProducer, (short)0,
                0, unwritten, from -> producer.sendBatch(unwritten.subList(from, unwritten.size()))
                    .thenApply(placed -> placed.get(0).offset()));
            final SequencedAppend rest = engine.producerSequences().append(PARTITION, cutProducer, (short)0, 0, cut,
                from -> producer.sendBatch(cut.subList(from, cut.size())).thenApply(placed -> placed.get(0).offset()));

            assertThat(whole.baseOffset().join()).isEqualTo(3);
            assertThat(rest.baseOffset().join()).isZero();
            assertThat(values(engine)).containsExactly("v0", "v1", "v2", "w0", "w1", "v3");
        }
    }

    private static ProducerRecord record(final String key, final String value)
    {
        return ProducerRecord.toPartition("orders", 0, EngineFixture.bytes(key), EngineFixture.bytes(value));
    }

    private static List<String> values(final StreamEngine engine)
    {
        final List<String> values = new ArrayList<>();
        try (LogReader reader = engine.topics().topic("orders").partition(0).newReader())
        {
            for (RecordView view = reader.next(); view != null; view = reader.next())
            {
                values.add(EngineFixture.text(view.valueBytes()));
            }
        }
        return values;
    }
}
