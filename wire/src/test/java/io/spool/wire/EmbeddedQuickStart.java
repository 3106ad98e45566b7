package io.spool.wire;

import io.spool.Spool;
import io.spool.queue.Delivery;
import io.spool.queue.Subscription;
import io.spool.queue.SubscriptionSettings;
import io.spool.stream.ConsumerConfig;
import io.spool.stream.ConsumerRecord;
import io.spool.stream.PublishResult;
import io.spool.stream.StreamConsumer;
import io.spool.stream.TopicConfig;
import io.spool.stream.TopicPartition;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The README's embedded quick start as a program, run by {@link PlainClassPathTest} in a JVM given no flags. It
 * prints the record it published, read back as a stream and as a queue delivery.
 */
public final class EmbeddedQuickStart
{
    private EmbeddedQuickStart()
    {
    }

    public static void main(final String[] args)
    {
        try (Spool spool = Spool.open(Path.of(args[0])))
        {
            spool.createTopic("orders", TopicConfig.of(4));
            spool.createSubscription("billing", "orders", SubscriptionSettings.builder()
                .lockTimeoutMillis(30_000).deliveryLimit(20).build());
            final PublishResult stored = spool.newProducer()
                .send("orders", "customer-7".getBytes(StandardCharsets.UTF_8), "order #1".getBytes(StandardCharsets.UTF_8))
                .join();

            try (StreamConsumer stream = spool.newConsumer(ConsumerConfig.standalone()))
            {
                final TopicPartition partition = new TopicPartition("orders", stored.partition());
                stream.assign(List.of(partition));
                stream.seekToBeginning(List.of(partition));
                for (final ConsumerRecord record : stream.poll(100, 1 << 20, Duration.ofSeconds(5)))
                {
                    System.out.println("stream: partition " + record.partition() + " offset " + record.offset() + " " +
                        new String(record.value(), StandardCharsets.UTF_8));
                }
            }

            final Subscription billing = spool.subscription("billing");
            for (final Delivery delivery : billing.receive(10, 5_000))
            {
                System.out.println("queue: " + delivery.valueAsString());
                billing.ack(delivery.receipt());
            }
        }
    }
}
