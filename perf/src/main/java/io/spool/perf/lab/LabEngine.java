package io.spool.perf.lab;

import io.spool.Spool;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.ProducerRecord;
import io.spool.api.stream.TopicConfig;
import io.spool.api.stream.TopicPartition;
import io.spool.queue.Subscription;
import io.spool.stream.ConsumerConfig;
import io.spool.stream.StreamConsumer;
import org.agrona.concurrent.CachedEpochClock;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An engine for one lab: Spool on the lab's directory with a hand-moved clock and no background maintenance, so
 * every timeout fires when the lab moves time, not when the machine happens to be slow. Time is counted in
 * virtual milliseconds from the start of the lab. Not thread-safe: one lab thread moves the clock.
 */
final class LabEngine implements AutoCloseable
{
    /** 2026-01-01T00:00:00Z: a fixed start, so record timestamps and ages are the same every run. */
    private static final long START_EPOCH_MILLIS = 1_767_225_600_000L;

    private final CachedEpochClock clock = new CachedEpochClock();
    private final Spool spool;

    LabEngine(final Path dir)
    {
        clock.update(START_EPOCH_MILLIS);
        spool = Spool.builder(dir).clock(clock).backgroundMaintenance(false).open();
    }

    Spool spool()
    {
        return spool;
    }

    /** Creates a topic of one partition, so a queue's order is the order of publishing. */
    void createTopic(final String name)
    {
        spool.createTopic(name, TopicConfig.of(1));
    }

    /** Publishes and waits for the confirm. */
    void publish(final String topic, final String key, final String value)
    {
        spool.newProducer().send(topic, key == null ? null : key.getBytes(StandardCharsets.UTF_8),
            value.getBytes(StandardCharsets.UTF_8)).join();
    }

    /**
     * Publishes with headers (a group, a delay, a dedup id) to partition 0 and waits for the confirm.
     *
     * @return the offset the record is stored at; a repeated dedup id returns the first one's.
     */
    long publish(final String topic, final String value, final Map<String, String> headers)
    {
        final Map<String, byte[]> encoded = new LinkedHashMap<>();
        headers.forEach((name, text) -> encoded.put(name, text.getBytes(StandardCharsets.UTF_8)));
        return spool.newProducer().send(new ProducerRecord(topic, 0, null, encoded,
            value.getBytes(StandardCharsets.UTF_8))).join().offset();
    }

    /**
     * Reads partition 0 of a topic from the start, waiting up to 30 s of real time for at least {@code count}
     * records: dead letters are published by the subscription's agent after the settlement that killed them returns.
     */
    List<ConsumerRecord> awaitRecords(final String topic, final int count)
    {
        final TopicPartition partition = new TopicPartition(topic, 0);
        final List<ConsumerRecord> records = new ArrayList<>();
        final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        try (StreamConsumer reader = spool.newConsumer(ConsumerConfig.standalone()))
        {
            reader.assign(List.of(partition));
            reader.seekToBeginning(List.of(partition));
            while (records.size() < count)
            {
                if (System.nanoTime() > deadline)
                {
                    throw new IllegalStateException(topic + " holds " + records.size() + " records after 30 s, " +
                        "expected " + count);
                }
                records.addAll(reader.poll(count - records.size(), 1 << 20, Duration.ofSeconds(1)));
            }
        }
        return records;
    }

    /** A header of a record as text, or null. */
    static String header(final ConsumerRecord record, final String name)
    {
        final byte[] value = record.headers().get(name);
        return value == null ? null : new String(value, StandardCharsets.UTF_8);
    }

    /** Virtual milliseconds since the lab started. */
    long now()
    {
        return clock.time() - START_EPOCH_MILLIS;
    }

    /** Moves the clock to {@code millis} after the start and waits until each subscription has acted on it. */
    void advanceTo(final long millis, final Subscription... subscriptions)
    {
        if (millis < now())
        {
            throw new IllegalArgumentException("time only moves forward: at " + now() + " ms, asked for " + millis);
        }
        clock.update(START_EPOCH_MILLIS + millis);
        for (final Subscription subscription : subscriptions)
        {
            subscription.sync();
        }
    }

    /** Virtual milliseconds as seconds: {@code 2.05 s}. */
    static String seconds(final long millis)
    {
        return String.format(Locale.ROOT, "%.2f s", millis / 1000.0);
    }

    @Override
    public void close()
    {
        spool.close();
    }
}
