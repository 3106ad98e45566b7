package io.spool.wire;

import io.spool.Spool;
import io.spool.log.SpoolException;
import io.spool.stream.ConsumerConfig;
import io.spool.stream.PublishListener;
import io.spool.stream.StreamConsumer;
import io.spool.stream.StreamProducer;
import io.spool.stream.TopicConfig;
import io.spool.stream.TopicPartition;
import io.spool.log.LogConfig;
import io.spool.wire.client.ClientConfig;
import io.spool.wire.client.ProducerConfig;
import io.spool.wire.client.RemoteProducer;
import io.spool.wire.client.RemoteStreamConsumer;
import io.spool.wire.client.SpoolClient;
import io.spool.wire.server.ServerConfig;
import io.spool.wire.server.SpoolServer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Records per second over loopback beside the embedded engine in the same run: publish with confirms (100-byte
 * values, one connection, batching) and consume by fetch. Not a test: run its main with the test classpath.
 * Arguments: record count (default 2,000,000); system properties {@code bench.maxUnconfirmed} (the server's bound
 * per connection, default 65,536) and {@code bench.batchBytes} (the producer's batch, default 256 KiB). Not
 * thread-safe.
 */
public final class LoopbackBenchmark
{
    private static final int VALUE_BYTES = 100;

    private LoopbackBenchmark()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final int records = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        final Path dir = Files.createTempDirectory("spool-bench");
        final TopicConfig topic = TopicConfig.of(1).withLog(LogConfig.builder().segmentBytes(256 << 20).build());
        try (Spool spool = Spool.builder(dir).backgroundMaintenance(false).open();
             SpoolServer server = SpoolServer.start(spool, ServerConfig.builder().port(0).ioThreads(1)
                 .maxUnconfirmedPublishes(Integer.getInteger("bench.maxUnconfirmed", 65_536)).build());
             SpoolClient client = SpoolClient.connect(ClientConfig.builder().port(server.port()).build()))
        {
            spool.createTopic("embedded", topic);
            spool.createTopic("remote", topic);
            final byte[] value = new byte[VALUE_BYTES];

            final double embeddedPublish = embeddedPublish(spool, records, value);
            final double remotePublish = remotePublish(client, records, value);
            final double embeddedConsume = embeddedConsume(spool, records);
            final double remoteConsume = remoteConsume(client, records);

            System.out.printf("transport %s, %,d records of %d bytes%n", server.transport(), records, VALUE_BYTES);
            System.out.printf("publish with confirms  embedded %,12.0f rec/s   remote %,12.0f rec/s   ratio %.2f%n",
                embeddedPublish, remotePublish, remotePublish / embeddedPublish);
            System.out.printf("consume                embedded %,12.0f rec/s   remote %,12.0f rec/s   ratio %.2f%n",
                embeddedConsume, remoteConsume, remoteConsume / embeddedConsume);
        }
    }

    private static double embeddedPublish(final Spool spool, final int records, final byte[] value)
    {
        final AtomicLong confirmed = new AtomicLong();
        final StreamProducer producer = spool.streams().newProducer(counting(confirmed));
        final UnsafeBuffer buffer = new UnsafeBuffer(value);
        final long start = System.nanoTime();
        for (int i = 0; i < records; i++)
        {
            producer.publishToPartition("embedded", 0, buffer, 0, -1, buffer, 0, 0, buffer, 0, VALUE_BYTES, i);
        }
        while (confirmed.get() < records)
        {
            Thread.onSpinWait();
        }
        return records * 1e9 / (System.nanoTime() - start);
    }

    private static double remotePublish(final SpoolClient client, final int records, final byte[] value)
    {
        final AtomicLong confirmed = new AtomicLong();
        final RemoteProducer producer = client.newProducer(ProducerConfig.builder().batchBytes(Integer.getInteger("bench.batchBytes", 256 * 1024))
            .lingerMillis(2).build(), counting(confirmed));
        final long start = System.nanoTime();
        for (int i = 0; i < records; i++)
        {
            producer.sendToPartition("remote", 0, null, null, value, i);
        }
        producer.awaitConfirms();
        if (confirmed.get() != records)
        {
            throw new IllegalStateException("only " + confirmed.get() + " of " + records + " confirmed");
        }
        return records * 1e9 / (System.nanoTime() - start);
    }

    private static double embeddedConsume(final Spool spool, final int records)
    {
        try (StreamConsumer consumer = spool.newConsumer(ConsumerConfig.standalone()))
        {
            consumer.assign(List.of(new TopicPartition("embedded", 0)));
            final long start = System.nanoTime();
            long seen = 0;
            while (seen < records)
            {
                seen += consumer.poll((t, p, record) -> { }, 10_000, 1 << 20, Duration.ofSeconds(1));
            }
            return records * 1e9 / (System.nanoTime() - start);
        }
    }

    private static double remoteConsume(final SpoolClient client, final int records)
    {
        final RemoteStreamConsumer consumer = client.newStreamConsumer();
        consumer.assign(List.of(new TopicPartition("remote", 0)));
        final long start = System.nanoTime();
        long seen = 0;
        while (seen < records)
        {
            seen += consumer.poll((t, p, record) -> { }, 10_000, 1 << 20, Duration.ofSeconds(1));
        }
        return records * 1e9 / (System.nanoTime() - start);
    }

    private static PublishListener counting(final AtomicLong confirmed)
    {
        return new PublishListener()
        {
            @Override
            public void onPublished(final long correlation, final String topic, final int partition, final long offset)
            {
                confirmed.incrementAndGet();
            }

            @Override
            public void onFailed(final long correlation, final String topic, final int partition,
                final SpoolException error)
            {
                confirmed.incrementAndGet();
            }
        };
    }
}
