package io.spool.perf.cli;

import io.spool.stream.PublishResult;
import io.spool.stream.StreamRecordHandler;
import io.spool.stream.TopicConfig;
import io.spool.stream.TopicDescription;
import io.spool.stream.TopicPartition;
import io.spool.wire.client.ClientConfig;
import io.spool.wire.client.ProducerConfig;
import io.spool.wire.client.RemoteProducer;
import io.spool.wire.client.RemoteStreamConsumer;
import io.spool.wire.client.SpoolClient;
import io.spool.wire.client.SpoolAdmin;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/** A running server reached over one client connection. Not thread-safe. */
final class RemoteEndpoint implements Endpoint
{
    private static final int MAX_POLL_BYTES = 1 << 20;

    private final String address;
    private final SpoolClient client;
    private final SpoolAdmin admin;

    RemoteEndpoint(final String host, final int port, final String token)
    {
        this.address = host + ":" + port;
        this.client = SpoolClient.connect(ClientConfig.builder().host(host).port(port).token(token)
            .clientName("spool-cli").build());
        this.admin = client.admin();
    }

    @Override
    public String where()
    {
        return "server " + address;
    }

    @Override
    public List<String> listTopics()
    {
        return admin.listTopics();
    }

    @Override
    public void createTopic(final String name, final int partitions)
    {
        admin.createTopic(name, TopicConfig.of(partitions));
    }

    @Override
    public TopicDescription describeTopic(final String name)
    {
        return admin.describeTopic(name);
    }

    @Override
    public void deleteTopic(final String name)
    {
        admin.deleteTopic(name);
    }

    @Override
    public Sender newSender()
    {
        // no listener: every send here completes its own future, and the listener only hears the others
        final RemoteProducer producer = client.newProducer(ProducerConfig.defaults(), null);
        return new Sender()
        {
            @Override
            public CompletableFuture<PublishResult> send(final String topic, final byte[] key, final byte[] value)
            {
                return producer.send(topic, key, value);
            }

            @Override
            public void close()
            {
                producer.close();
            }
        };
    }

    @Override
    public Reader newReader()
    {
        final RemoteStreamConsumer consumer = client.newStreamConsumer();
        return new Reader()
        {
            @Override
            public void assign(final Collection<TopicPartition> partitions)
            {
                consumer.assign(partitions);
            }

            @Override
            public void seek(final TopicPartition partition, final long offset)
            {
                consumer.seek(partition, offset);
            }

            @Override
            public int poll(final StreamRecordHandler handler, final int maxRecords, final Duration timeout)
            {
                return consumer.poll(handler, maxRecords, MAX_POLL_BYTES, timeout);
            }

            @Override
            public void close()
            {
                consumer.close();
            }
        };
    }

    @Override
    public void close()
    {
        client.close();
    }
}
