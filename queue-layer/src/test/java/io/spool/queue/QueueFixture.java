package io.spool.queue;

import io.spool.Spool;
import io.spool.api.log.LogConfig;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import io.spool.log.LogFixture;
import io.spool.stream.ConsumerConfig;
import io.spool.stream.StreamConsumer;
import org.agrona.concurrent.CachedEpochClock;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * An engine on a test directory with a hand-driven clock and no background maintenance.
 */
public final class QueueFixture implements AutoCloseable
{
    final Path dir;
    public final CachedEpochClock clock = new CachedEpochClock();
    public Spool spool;

    QueueFixture(final Path dir)
    {
        this(dir, 1_000_000);
    }

    private QueueFixture(final Path dir, final long now)
    {
        this.dir = dir;
        clock.update(now);
        reopen();
    }

    /**
     * Opens what a process killed now would leave on disk: the running engine's files, copied into the empty
     * directory {@code image} before anything is closed, at the same time. The running engine is closed after.
     */
    public QueueFixture crashInto(final Path image)
    {
        LogFixture.copyCrashImage(dir, image);
        close();
        return new QueueFixture(image, clock.time());
    }

    public QueueFixture reopen()
    {
        if (spool != null)
        {
            spool.close();
        }
        spool = Spool.builder(dir).clock(clock).backgroundMaintenance(false).open();
        return this;
    }

    public void topic(final String name, final int partitions)
    {
        spool.createTopic(name, new TopicConfig(partitions, LogConfig.builder().segmentBytes(64 * 1024)
            .maxRecordBytes(16 * 1024).build()));
    }

    public void publish(final String topic, final String... values)
    {
        for (final String value : values)
        {
            spool.newProducer().send(topic, null, value.getBytes(StandardCharsets.UTF_8)).join();
        }
    }

    /** Publishes {@code count} messages valued job-0, job-1 and on, one by one. */
    void publishJobs(final String topic, final int count)
    {
        for (int i = 0; i < count; i++)
        {
            publish(topic, "job-" + i);
        }
    }

    /** Waits (on the real clock: deliveries arrive on the consumers' threads) up to 30 s for the latch to open. */
    public static void await(final CountDownLatch latch)
    {
        try
        {
            org.assertj.core.api.Assertions.assertThat(latch.await(30, TimeUnit.SECONDS)).as("deliveries arrive")
                .isTrue();
        }
        catch (final InterruptedException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /** Publishes one message with headers given as name, value pairs; returns its offset. */
    public long publishWith(final String topic, final String value, final String... headerPairs)
    {
        final Map<String, byte[]> headers = new LinkedHashMap<>();
        for (int i = 0; i < headerPairs.length; i += 2)
        {
            headers.put(headerPairs[i], headerPairs[i + 1].getBytes(StandardCharsets.UTF_8));
        }
        return spool.newProducer().send(new ProducerRecord(topic, 0, null, headers,
            value.getBytes(StandardCharsets.UTF_8))).join().offset();
    }

    /** Advances the clock and waits until the subscription has acted on it. */
    public void advance(final Subscription subscription, final long millis)
    {
        clock.advance(millis);
        subscription.sync();
    }

    /** Receives and acks until nothing is ready; returns the values received, in order. */
    static List<String> drain(final Subscription subscription)
    {
        final List<String> values = new ArrayList<>();
        List<Delivery> batch;
        while (!(batch = subscription.receive(100, 0)).isEmpty())
        {
            values.addAll(values(batch));
            batch.forEach(delivery -> subscription.ack(delivery.receipt()));
        }
        return values;
    }

    public static List<String> values(final List<Delivery> deliveries)
    {
        final List<String> out = new ArrayList<>();
        deliveries.forEach(d -> out.add(d.valueAsString()));
        return out;
    }

    /** Every record of a topic's partition 0, read as a stream. */
    public List<ConsumerRecord> readTopic(final String topic)
    {
        try (StreamConsumer consumer = spool.newConsumer(ConsumerConfig.standalone()))
        {
            consumer.assign(List.of(new TopicPartition(topic, 0)));
            consumer.seekToBeginning(List.of(new TopicPartition(topic, 0)));
            return consumer.poll(1000, Integer.MAX_VALUE, Duration.ZERO);
        }
    }

    /** Waits (on the real clock: a publish confirms on another thread) until a topic has {@code count} records. */
    public List<ConsumerRecord> awaitRecords(final String topic, final int count)
    {
        final long deadline = System.nanoTime() + 30_000_000_000L;
        List<ConsumerRecord> records = readTopic(topic);
        while (records.size() < count && System.nanoTime() < deadline)
        {
            Thread.onSpinWait();
            records = readTopic(topic);
        }
        org.assertj.core.api.Assertions.assertThat(records).hasSize(count);
        return records;
    }

    public static String header(final ConsumerRecord record, final String name)
    {
        final byte[] value = record.headers().get(name);
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    @Override
    public void close()
    {
        spool.close();
    }
}
