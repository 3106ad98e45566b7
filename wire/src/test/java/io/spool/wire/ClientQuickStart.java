package io.spool.wire;

import io.spool.queue.SubscriptionSettings;
import io.spool.stream.PublishResult;
import io.spool.stream.TopicConfig;
import io.spool.stream.TopicPartition;
import io.spool.wire.client.ClientConfig;
import io.spool.wire.client.ProducerConfig;
import io.spool.wire.client.RemoteDelivery;
import io.spool.wire.client.RemoteProducer;
import io.spool.wire.client.RemoteStreamConsumer;
import io.spool.wire.client.SpoolClient;
import io.spool.wire.server.ServerConfig;
import io.spool.wire.server.SpoolServer;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * The README's network client example as a program, run by {@link PlainClassPathTest} in a JVM given no flags: it
 * serves a data directory on a free loopback port, then publishes, fetches and receives through the client.
 */
public final class ClientQuickStart
{
    private ClientQuickStart()
    {
    }

    public static void main(final String[] args)
    {
        try (SpoolServer server = SpoolServer.open(Path.of(args[0]), ServerConfig.builder().port(0).build());
             SpoolClient client = SpoolClient.connect(ClientConfig.builder().port(server.port()).build()))
        {
            client.admin().createTopic("orders", TopicConfig.of(4));
            client.admin().createSubscription("billing", "orders", SubscriptionSettings.DEFAULT);
            final RemoteProducer producer = client.newProducer(ProducerConfig.defaults(), RoundTripTest.ignoringListener());
            final PublishResult stored = producer.send("orders", "customer-7".getBytes(StandardCharsets.UTF_8),
                "order #1".getBytes(StandardCharsets.UTF_8)).join();

            final RemoteStreamConsumer consumer = client.newStreamConsumer();
            consumer.assign(List.of(new TopicPartition("orders", stored.partition())));
            consumer.seekToBeginning(consumer.assignment());
            consumer.poll((topic, partition, record) -> System.out.println("stream: partition " + partition +
                " offset " + record.offset() + " " + new String(record.valueBytes(), StandardCharsets.UTF_8)),
                100, 1 << 20, Duration.ofSeconds(5));

            for (final RemoteDelivery delivery : client.subscription("billing").receive(10, 5_000))
            {
                System.out.println("queue: " + delivery.valueAsString());
                client.subscription("billing").ack(delivery.receipt());
            }
        }
    }
}
