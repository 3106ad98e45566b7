package io.spool.log;

import io.spool.api.EngineClosedException;
import io.spool.api.SpoolException;
import io.spool.api.log.Durability;
import io.spool.api.log.LogConfig;
import io.spool.log.internal.pipeline.AppendEvent;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static io.spool.log.LogFixture.bytes;
import static org.assertj.core.api.Assertions.assertThat;

class IngestPipelineTest
{
    @TempDir
    Path dir;
    LogStore store;

    @AfterEach
    void close()
    {
        if (store != null)
        {
            store.close();
        }
    }

    private LogStore open(final int ringSize, final int pipelines)
    {
        return open(ringSize, pipelines, PipelineThreading.COMBINED);
    }

    private LogStore open(final int ringSize, final int pipelines, final PipelineThreading threading)
    {
        store = LogStore.open(dir, LogStoreConfig.builder().ringSize(ringSize).pipelines(pipelines)
            .threading(threading).backgroundMaintenance(false).build());
        return store;
    }

    /** Collects confirms; counts down once per confirm. */
    static final class Confirms implements ConfirmListener
    {
        final ConcurrentLinkedQueue<long[]> confirmed = new ConcurrentLinkedQueue<>();
        final ConcurrentLinkedQueue<SpoolException> failed = new ConcurrentLinkedQueue<>();
        final CountDownLatch done;

        Confirms(final int expected)
        {
            done = new CountDownLatch(expected);
        }

        @Override
        public void onConfirmed(final long correlation, final long offset)
        {
            confirmed.add(new long[]{correlation, offset});
            done.countDown();
        }

        @Override
        public void onFailed(final long correlation, final SpoolException error)
        {
            failed.add(error);
            done.countDown();
        }

        void await() throws InterruptedException
        {
            assertThat(done.await(60, TimeUnit.SECONDS)).as("all confirms arrive").isTrue();
        }
    }

    @ParameterizedTest
    @EnumSource(PipelineThreading.class)
    void manyProducersOnSharedPipelinesGetEveryRecordStoredOnceInConfirmOrder(final PipelineThreading threading)
        throws Exception
    {
        open(256, 2, threading);
        final PartitionLog[] logs = {
            store.openLog("a/0", LogFixture.smallSegments(64 * 1024)),
            store.openLog("a/1", LogFixture.smallSegments(64 * 1024)),
            store.openLog("a/2", LogConfig.builder().durability(Durability.EVERY_BATCH).build())};
        final int producers = 4;
        final int perProducer = 5_000;
        final Confirms confirms = new Confirms(producers * perProducer);
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++)
        {
            final int id = p;
            threads.add(new Thread(() ->
            {
                final LogProducer producer = store.newProducer();
                final UnsafeBuffer value = new UnsafeBuffer(new byte[16]);
                for (int i = 0; i < perProducer; i++)
                {
                    value.putInt(0, id);
                    value.putInt(4, i);
                    final PartitionLog log = logs[i % logs.length];
                    producer.publish(log, -1, value, 0, -1, value, 0, 0, value, 0, 16, confirms,
                        ((long)id << 32) | i);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (final Thread t : threads)
        {
            t.join();
        }
        confirms.await();
        assertThat(confirms.failed).isEmpty();

        long total = 0;
        for (final PartitionLog log : logs)
        {
            final boolean[][] seen = new boolean[producers][perProducer];
            final long[] expectedOffset = {0};
            try (LogReader reader = log.newReader())
            {
                int n;
                while ((n = reader.poll(r ->
                {
                    assertThat(r.offset()).isEqualTo(expectedOffset[0]++);
                    final int id = r.buffer().getInt(r.valueOffset());
                    final int i = r.buffer().getInt(r.valueOffset() + 4);
                    assertThat(seen[id][i]).as("record stored once").isFalse();
                    seen[id][i] = true;
                }, 1000)) > 0)
                {
                    total += n;
                }
            }
        }
        assertThat(total).isEqualTo((long)producers * perProducer);
        assertThat(confirms.confirmed).hasSize(producers * perProducer);
    }

    @Test
    void confirmsOfOneLogArriveInOffsetOrder() throws Exception
    {
        open(64, 1);
        final PartitionLog log = store.openLog("o/0", LogConfig.DEFAULT);
        final int n = 2_000;
        final Confirms confirms = new Confirms(n);
        final LogProducer producer = store.newProducer();
        final UnsafeBuffer value = new UnsafeBuffer(bytes("payload"));
        for (int i = 0; i < n; i++)
        {
            producer.publish(log, -1, value, 0, -1, value, 0, 0, value, 0, value.capacity(), confirms, i);
        }
        confirms.await();
        long expected = 0;
        for (final long[] c : confirms.confirmed)
        {
            assertThat(c[0]).isEqualTo(expected);
            assertThat(c[1]).isEqualTo(expected);
            expected++;
        }
    }

    @ParameterizedTest
    @EnumSource(PipelineThreading.class)
    void everyBatchGroupCommitsManyRecordsPerFsync(final PipelineThreading threading) throws Exception
    {
        open(1024, 1, threading);
        final PartitionLog log = store.openLog("d/0", LogConfig.builder().durability(Durability.EVERY_BATCH).build());
        final int n = 5_000;
        final Confirms confirms = new Confirms(n);
        final List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < 4; p++)
        {
            threads.add(new Thread(() ->
            {
                final LogProducer producer = store.newProducer();
                final UnsafeBuffer value = new UnsafeBuffer(new byte[100]);
                for (int i = 0; i < n / 4; i++)
                {
                    producer.publish(log, -1, value, 0, -1, value, 0, 0, value, 0, 100, confirms, i);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (final Thread t : threads)
        {
            t.join();
        }
        confirms.await();
        assertThat(log.endOffset()).isEqualTo(n);
        assertThat(store.fsyncCount()).isPositive().isLessThan(n);
    }

    @Test
    void aFullPipelinePushesBackInsteadOfGrowing() throws Exception
    {
        open(8, 1);
        final PartitionLog log = store.openLog("b/0", LogConfig.DEFAULT);
        final HeldConfirms held = new HeldConfirms();
        final LogProducer producer = store.newProducer();
        final UnsafeBuffer value = new UnsafeBuffer(bytes("x"));
        int accepted = 0;
        while (producer.tryPublish(log, -1, value, 0, -1, value, 0, 0, value, 0, 1, held, accepted) !=
            LogProducer.BACK_PRESSURED)
        {
            accepted++;
            assertThat(accepted).as("the ring bounds unconfirmed publishes").isLessThanOrEqualTo(8);
        }
        assertThat(accepted).isEqualTo(8);
        held.release.countDown();
        store.close();
        assertThat(held.confirmed.get()).isEqualTo(8);
        store = null;
    }

    @Test
    void aPublisherWaitsOnAFullPipelineUntilThereIsRoom() throws Exception
    {
        open(8, 1);
        final PartitionLog log = store.openLog("wait/0", LogConfig.DEFAULT);
        final HeldConfirms held = new HeldConfirms();
        final RecordBatch batch = new RecordBatch();
        final String filler = "-".repeat(AppendEvent.BATCH_BYTES / 2);
        for (int i = 0; i < 20; i++)
        {
            batch.add(null, null, bytes("v" + i + filler));
        }
        final Thread publisher = new Thread(() -> store.newProducer().publishBatch(log, batch, held, 0));
        publisher.start();
        publisher.join(TimeUnit.MILLISECONDS.toMillis(200));
        final boolean waiting = publisher.isAlive();
        held.release.countDown();
        assertThat(waiting).as("20 records of half a slot each do not fit 8 slots whose confirms are held").isTrue();

        publisher.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(publisher.isAlive()).isFalse();
        assertThat(log.awaitEndAbove(19, TimeUnit.SECONDS.toNanos(30))).isTrue();
        assertThat(LogFixture.readAll(log, 0)).hasSize(20).startsWith("0:null:v0" + filler)
            .endsWith("19:null:v19" + filler);
    }

    @Test
    void aPublisherWaitingOnAFullPipelineGivesUpWhenTheStoreCloses() throws Exception
    {
        open(8, 1);
        final PartitionLog log = store.openLog("closing/0", LogConfig.DEFAULT);
        final HeldConfirms held = new HeldConfirms();
        final LogProducer producer = store.newProducer();
        final UnsafeBuffer value = new UnsafeBuffer(bytes("x"));
        for (int i = 0; i < 8; i++)
        {
            producer.publish(log, -1, value, 0, -1, value, 0, 0, value, 0, 1, held, i);
        }
        final AtomicReference<Throwable> outcome = new AtomicReference<>();
        final Thread publisher = new Thread(() ->
        {
            try
            {
                store.newProducer().publish(log, -1, value, 0, -1, value, 0, 0, value, 0, 1, held, 8);
            }
            catch (final RuntimeException ex)
            {
                outcome.set(ex);
            }
        });
        publisher.start();
        final LogStore closing = store;
        final Thread closer = new Thread(closing::close);
        closer.start();
        publisher.join(TimeUnit.SECONDS.toMillis(30));

        assertThat(publisher.isAlive()).isFalse();
        assertThat(outcome.get()).isInstanceOf(EngineClosedException.class);
        held.release.countDown();
        closer.join(TimeUnit.SECONDS.toMillis(30));
        assertThat(held.confirmed.get()).as("what was in the ring is still confirmed").isEqualTo(8);
        store = null;
    }

    /** Holds the pipeline thread in its first confirm until released, so the ring fills up behind it. */
    private static final class HeldConfirms implements ConfirmListener
    {
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicLong confirmed = new AtomicLong();

        @Override
        public void onConfirmed(final long correlation, final long offset)
        {
            try
            {
                release.await();
            }
            catch (final InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            confirmed.incrementAndGet();
        }

        @Override
        public void onFailed(final long correlation, final SpoolException error)
        {
        }
    }

    @ParameterizedTest
    @EnumSource(PipelineThreading.class)
    void slotsOfABatchThatRollInTheirMiddleKeepEveryConfirmedRecordThroughAPowerLoss(final PipelineThreading threading)
        throws Exception
    {
        final PowerLossFileSync storage = new PowerLossFileSync(dir);
        final LogConfig config = LogConfig.builder().segmentBytes(4096).maxRecordBytes(1024).indexIntervalBytes(256)
            .durability(Durability.EVERY_BATCH).build();
        final List<String> expected = new ArrayList<>();
        final RecordBatch batch = new RecordBatch();
        for (int i = 0; i < 300; i++)
        {
            final String value = "value-" + i + "-" + "x".repeat(i % 90);
            batch.add(null, null, bytes(value));
            expected.add(i + ":null:" + value);
        }
        store = LogStore.open(dir, LogStoreConfig.builder().ringSize(64).threading(threading).fileSync(storage)
            .backgroundMaintenance(false).build());
        final PartitionLog log = store.openLog("rolls/0", config);
        final Confirms confirms = new Confirms(300);
        store.newProducer().publishBatch(log, batch, confirms, 0);
        confirms.await();
        assertThat(confirms.failed).isEmpty();
        assertThat(confirms.confirmed).allSatisfy(c -> assertThat(c[1]).as("offset of correlation %d", c[0])
            .isEqualTo(c[0]));
        storage.losePower();
        store.close();
        storage.restoreWhatWasForced();

        store = LogStore.open(dir, LogStoreConfig.builder().backgroundMaintenance(false).build());
        final PartitionLog reopened = store.openLog("rolls/0", config);
        assertThat(reopened.recoveryReport().segments()).as("the batch spans many segments").isGreaterThan(5);
        assertThat(LogFixture.readAll(reopened, 0)).containsExactlyElementsOf(expected);
    }

    @Test
    void batchPublishClaimsSlotsTogetherAndConfirmsEachRecord() throws Exception
    {
        open(16, 1);
        final PartitionLog log = store.openLog("batch/0", LogConfig.DEFAULT);
        final RecordBatch batch = new RecordBatch();
        for (int i = 0; i < 100; i++)
        {
            batch.add(bytes("k" + i), null, bytes("v" + i));
        }
        final Confirms confirms = new Confirms(100);
        store.newProducer().publishBatch(log, batch, confirms, 1000);
        confirms.await();
        assertThat(confirms.confirmed.stream().mapToLong(c -> c[0]).min().getAsLong()).isEqualTo(1000);
        assertThat(LogFixture.readAll(log, 0)).hasSize(100).startsWith("0:k0:v0").endsWith("99:k99:v99");
    }

    @Test
    void readersTailTheWriterWithoutSeeingUncommittedRecords() throws Exception
    {
        open(256, 1);
        final PartitionLog log = store.openLog("tail/0", LogFixture.smallSegments(16 * 1024));
        final int n = 20_000;
        final Thread writer = new Thread(() ->
        {
            final LogProducer producer = store.newProducer();
            final UnsafeBuffer value = new UnsafeBuffer(new byte[8]);
            for (int i = 0; i < n; i++)
            {
                value.putLong(0, i);
                producer.publish(log, -1, value, 0, -1, value, 0, 0, value, 0, 8, null, i);
            }
        });
        writer.start();
        final long[] next = {0};
        try (LogReader reader = log.newReader())
        {
            while (next[0] < n)
            {
                if (reader.poll(r ->
                {
                    assertThat(r.offset()).isEqualTo(next[0]);
                    assertThat(r.buffer().getLong(r.valueOffset())).isEqualTo(next[0]);
                    next[0]++;
                }, 500) == 0)
                {
                    assertThat(log.awaitEndAbove(reader.nextOffset(), 5_000_000_000L)).isTrue();
                }
            }
        }
        writer.join();
        assertThat(next[0]).isEqualTo(n);
    }

    @Test
    void intervalDurabilityForcesAtMostOncePerIntervalAndCatchesUpWhenIdle() throws Exception
    {
        final org.agrona.concurrent.CachedEpochClock clock = new org.agrona.concurrent.CachedEpochClock();
        clock.update(1_000_000);
        store = LogStore.open(dir, LogStoreConfig.builder().clock(clock).backgroundMaintenance(false)
            .idleFlushCheckMillis(1).build());
        final PartitionLog log = store.openLog("i/0", LogConfig.builder().durability(Durability.interval(100)).build());
        final LogProducer producer = store.newProducer();
        producer.appendAndWait(log, null, null, bytes("first"));
        assertThat(store.fsyncCount()).isEqualTo(1);
        producer.appendAndWait(log, null, null, bytes("second"));
        producer.appendAndWait(log, null, null, bytes("third"));
        assertThat(store.fsyncCount()).as("inside the interval nothing more is forced").isEqualTo(1);
        clock.advance(100);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (store.fsyncCount() < 2 && System.nanoTime() < deadline)
        {
            Thread.onSpinWait();
        }
        assertThat(store.fsyncCount()).as("an idle pipeline forces what waited past the interval").isEqualTo(2);
    }
}
