package io.spool.perf.lab;

import io.spool.api.queue.SubscriptionSettings;
import io.spool.api.stream.ConsumerRecord;
import io.spool.api.stream.TopicPartition;
import io.spool.queue.Delivery;
import io.spool.queue.Subscription;
import io.spool.stream.ConsumerConfig;
import io.spool.stream.StreamConsumer;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;

/**
 * One stored topic read both ways: replayed twice as a stream (byte for byte the same), drained as a queue (once,
 * then empty), from a single copy in the log. Thread-safe (stateless).
 */
public final class ReplayLab implements Lab
{
    private static final int MESSAGES = 1_000;

    @Override
    public String name()
    {
        return "replay";
    }

    @Override
    public String summary()
    {
        return "one topic replayed twice as a stream and drained once as a queue, from one stored copy";
    }

    @Override
    public LabTable run(final Path dir)
    {
        try (LabEngine lab = new LabEngine(dir))
        {
            lab.createTopic("events");
            final Subscription billing = lab.spool().createSubscription("billing", "events", SubscriptionSettings.DEFAULT);
            for (int i = 0; i < MESSAGES; i++)
            {
                lab.publish("events", "customer-" + i % 7, "event-" + i);
            }
            final Digest firstReplay = replay(lab);
            final int firstDrain = drain(billing);
            final Digest secondReplay = replay(lab);
            final int secondDrain = drain(billing);
            final long stored = lab.spool().streams().topics().topic("events").partition(0).endOffset();

            return new LabTable("replay: the same topic as a stream and as a queue",
                MESSAGES + " messages on one topic; a stream consumer reads from offset 0 twice, around a queue drain")
                .row("stream, first read: records", firstReplay.records, "Kafka / RabbitMQ stream: all of them")
                .row("stream, second read: records", secondReplay.records, "Kafka / RabbitMQ stream: all again")
                .row("stream, both reads byte-identical (SHA-256)",
                    firstReplay.sha256.equals(secondReplay.sha256) ? "yes, " + firstReplay.sha256.substring(0, 12)
                        : "no", "Kafka: yes")
                .row("queue, first drain: messages", firstDrain, "RabbitMQ classic queue: all of them")
                .row("queue, second drain: messages", secondDrain, "RabbitMQ classic queue: 0 (consumed)")
                .row("records stored for both", stored, "RabbitMQ: a stream and a queue, two copies");
        }
    }

    private record Digest(int records, String sha256)
    {
    }

    private static Digest replay(final LabEngine lab)
    {
        final MessageDigest sha256;
        try
        {
            sha256 = MessageDigest.getInstance("SHA-256");
        }
        catch (final NoSuchAlgorithmException ex)
        {
            throw new IllegalStateException("every Java runtime has SHA-256", ex);
        }
        final TopicPartition partition = new TopicPartition("events", 0);
        int records = 0;
        try (StreamConsumer stream = lab.spool().newConsumer(ConsumerConfig.standalone()))
        {
            stream.assign(List.of(partition));
            stream.seekToBeginning(List.of(partition));
            List<ConsumerRecord> batch;
            while (!(batch = stream.poll(500, 1 << 20, Duration.ZERO)).isEmpty())
            {
                for (final ConsumerRecord record : batch)
                {
                    sha256.update(ByteBuffer.allocate(Long.BYTES * 2).putLong(record.offset())
                        .putLong(record.timestamp()).array());
                    sha256.update(record.key());
                    sha256.update(record.value());
                    records++;
                }
            }
        }
        return new Digest(records, HexFormat.of().formatHex(sha256.digest()));
    }

    private static int drain(final Subscription subscription)
    {
        int drained = 0;
        List<Delivery> batch;
        while (!(batch = subscription.receive(100, 0)).isEmpty())
        {
            for (final Delivery delivery : batch)
            {
                subscription.ack(delivery.receipt());
            }
            drained += batch.size();
        }
        return drained;
    }
}
