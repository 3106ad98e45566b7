package io.spool.queue;

import io.spool.Spool;
import io.spool.log.LogConfig;
import io.spool.stream.ConsumerConfig;
import io.spool.stream.ConsumerRecord;
import io.spool.stream.StreamConsumer;
import io.spool.stream.TopicConfig;
import io.spool.stream.TopicPartition;
import org.agrona.concurrent.CachedEpochClock;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * An engine on a test directory with a hand-driven clock and no background maintenance.
 */
final class QueueFixture implements AutoCloseable
{
    final Path dir;
    final CachedEpochClock clock = new CachedEpochClock();
    Spool spool;

    QueueFixture(final Path dir)
    {
        this.dir = dir;
        clock.update(1_000_000);
        reopen();
    }

    QueueFixture reopen()
    {
        if (spool != null)
        {
            spool.close();
        }
        spool = Spool.builder(dir).clock(clock).backgroundMaintenance(false).open();
        return this;
    }

    void topic(final String name, final int partitions)
    {
        spool.createTopic(name, new TopicConfig(partitions, LogConfig.builder().segmentBytes(64 * 1024)
            .maxRecordBytes(16 * 1024).build()));
    }

    void publish(final String topic, final String... values)
    {
        for (final String value : values)
        {
            spool.newProducer().send(topic, null, value.getBytes(StandardCharsets.UTF_8)).join();
        }
    }

    /** Advances the clock and waits until the subscription has acted on it. */
    void advance(final Subscription subscription, final long millis)
    {
        clock.advance(millis);
        subscription.sync();
    }

    static List<String> values(final List<Delivery> deliveries)
    {
        final List<String> out = new ArrayList<>();
        deliveries.forEach(d -> out.add(d.valueAsString()));
        return out;
    }

    /** Every record of a topic's partition 0, read as a stream. */
    List<ConsumerRecord> readTopic(final String topic)
    {
        try (StreamConsumer consumer = spool.newConsumer(ConsumerConfig.standalone()))
        {
            consumer.assign(List.of(new TopicPartition(topic, 0)));
            consumer.seekToBeginning(List.of(new TopicPartition(topic, 0)));
            return consumer.poll(1000, Integer.MAX_VALUE, Duration.ZERO);
        }
    }

    @Override
    public void close()
    {
        spool.close();
    }
}
