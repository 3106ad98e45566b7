package io.spool.stream;

import io.spool.api.SpoolException;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.KeyPartitioner;
import io.spool.api.stream.PublishListener;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static io.spool.stream.EngineFixture.awaitCondition;
import static io.spool.stream.EngineFixture.bytes;
import static io.spool.stream.EngineFixture.text;
import static org.assertj.core.api.Assertions.assertThat;

class ConcurrentStreamsTest
{
    private static final int PRODUCERS = 3;
    private static final int PER_PRODUCER = 2_000;
    private static final int TOTAL = PRODUCERS * PER_PRODUCER;
    private static final int PARTITIONS = 4;

    @TempDir
    Path dir;

    @Test
    void manyProducersThenARebalancingGroupAcrossReopensReadEveryRecordOnceInKeyOrder() throws InterruptedException
    {
        final EngineFixture fixture = new EngineFixture(dir);
        final Set<String> confirmed = ConcurrentHashMap.newKeySet();
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("load", EngineFixture.topic(PARTITIONS));
            produceConcurrently(engine, confirmed);
        }
        assertThat(confirmed).as("every confirm names a distinct partition and offset").hasSize(TOTAL);

        final Map<String, ConsumerRecord> consumed = new ConcurrentHashMap<>();
        final AtomicInteger duplicates = new AtomicInteger();
        try (StreamEngine engine = fixture.open())
        {
            assertThat(engine.describeTopic("load").partitions().stream().mapToLong(p -> p.endOffset()).sum())
                .isEqualTo(TOTAL);
            consumeWithRebalances(engine, consumed, duplicates);
        }
        assertThat(duplicates.get()).isZero();
        assertThat(consumed.keySet()).isEqualTo(confirmed);
        assertKeyOrderKept(new ArrayList<>(consumed.values()));

        try (StreamEngine engine = fixture.open())
        {
            assertThat(engine.lag("workers").values()).hasSize(PARTITIONS).allMatch(lag -> lag == 0);
        }
    }

    @Test
    void producersAndARebalancingGroupRunningTogetherDeliverEveryRecordOnce() throws InterruptedException
    {
        final EngineFixture fixture = new EngineFixture(dir);
        final Set<String> confirmed = ConcurrentHashMap.newKeySet();
        final Map<String, ConsumerRecord> consumed = new ConcurrentHashMap<>();
        final AtomicInteger duplicates = new AtomicInteger();
        try (StreamEngine engine = fixture.open())
        {
            engine.createTopic("load", EngineFixture.topic(PARTITIONS));
            final AtomicReference<Throwable> failure = new AtomicReference<>();
            final Thread consuming = new Thread(() ->
            {
                try
                {
                    consumeWithRebalances(engine, consumed, duplicates);
                }
                catch (final Throwable ex)
                {
                    failure.set(ex);
                }
            });
            consuming.start();
            produceConcurrently(engine, confirmed);
            consuming.join();
            assertThat(failure.get()).isNull();
        }
        assertThat(duplicates.get()).isZero();
        assertThat(consumed.keySet()).isEqualTo(confirmed);
        assertKeyOrderKept(new ArrayList<>(consumed.values()));
    }

    private static void produceConcurrently(final StreamEngine engine, final Set<String> confirmed)
        throws InterruptedException
    {
        final AtomicInteger failures = new AtomicInteger();
        final PublishListener listener = new PublishListener()
        {
            @Override
            public void onPublished(final long correlation, final String topic, final int partition, final long offset)
            {
                confirmed.add(partition + "@" + offset);
            }

            @Override
            public void onFailed(final long correlation, final String topic, final int partition,
                final SpoolException error)
            {
                failures.incrementAndGet();
            }
        };
        final List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < PRODUCERS; t++)
        {
            final int producerId = t;
            threads.add(new Thread(() ->
            {
                final StreamProducer producer = engine.newProducer(listener);
                final UnsafeBuffer key = new UnsafeBuffer(new byte[16]);
                final UnsafeBuffer value = new UnsafeBuffer(new byte[32]);
                for (int i = 0; i < PER_PRODUCER; i++)
                {
                    final int keyLength = key.putStringWithoutLengthAscii(0, "p" + producerId + "-" + (i % 17));
                    final int valueLength = value.putStringWithoutLengthAscii(0, producerId + ":" + i);
                    producer.publish("load", key, 0, keyLength, value, 0, 0, value, 0, valueLength, i);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (final Thread thread : threads)
        {
            thread.join();
        }
        awaitCondition("every publish is confirmed", () -> confirmed.size() + failures.get() >= TOTAL);
        assertThat(failures.get()).isZero();
    }

    private static void consumeWithRebalances(final StreamEngine engine, final Map<String, ConsumerRecord> consumed,
        final AtomicInteger duplicates) throws InterruptedException
    {
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final List<AtomicBoolean> stops = new ArrayList<>();
        final List<Thread> threads = new ArrayList<>();
        for (int c = 0; c < 3; c++)
        {
            final AtomicBoolean stop = new AtomicBoolean();
            stops.add(stop);
            threads.add(consumerThread(engine, consumed, duplicates, stop, failure));
        }
        threads.forEach(Thread::start);
        awaitCondition("a third is consumed", () -> consumed.size() >= TOTAL / 3 || failure.get() != null);
        stops.get(0).set(true);
        threads.get(0).join();
        final Thread late = consumerThread(engine, consumed, duplicates, new AtomicBoolean(), failure);
        threads.add(late);
        late.start();
        for (final Thread thread : threads)
        {
            thread.join();
        }
        assertThat(failure.get()).isNull();
    }

    private static Thread consumerThread(final StreamEngine engine, final Map<String, ConsumerRecord> consumed,
        final AtomicInteger duplicates, final AtomicBoolean stop, final AtomicReference<Throwable> failure)
    {
        return new Thread(() ->
        {
            final long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            final ConsumerConfig config = ConsumerConfig.group("workers").withAutoCommit(true, 1_000)
                .withAssignor(StickyAssignor.NAME);
            try (StreamConsumer consumer = engine.newConsumer(config))
            {
                consumer.subscribe("load", "workers");
                while (!stop.get() && consumed.size() < TOTAL && System.nanoTime() < deadline)
                {
                    for (final ConsumerRecord record : consumer.poll(50, 1 << 20, Duration.ofMillis(20)))
                    {
                        if (consumed.putIfAbsent(record.partition() + "@" + record.offset(), record) != null)
                        {
                            duplicates.incrementAndGet();
                        }
                    }
                }
            }
            catch (final Throwable ex)
            {
                failure.compareAndSet(null, ex);
            }
        });
    }

    private static void assertKeyOrderKept(final List<ConsumerRecord> records)
    {
        records.sort(Comparator.comparingInt(ConsumerRecord::partition).thenComparingLong(ConsumerRecord::offset));
        final Map<String, Integer> lastSequenceByKey = new HashMap<>();
        final Map<String, Integer> partitionByKey = new HashMap<>();
        for (final ConsumerRecord record : records)
        {
            final String key = text(record.key());
            final int sequence = Integer.parseInt(text(record.value()).split(":")[1]);
            assertThat(lastSequenceByKey.getOrDefault(key, -1)).isLessThan(sequence);
            lastSequenceByKey.put(key, sequence);
            assertThat(partitionByKey.computeIfAbsent(key, k -> record.partition())).isEqualTo(record.partition());
            assertThat(record.partition()).isEqualTo(KeyPartitioner.partitionForKey(bytes(key), PARTITIONS));
        }
        assertThat(lastSequenceByKey).hasSize(PRODUCERS * 17);
    }
}
