package io.spool.perf.cli;

import io.spool.api.Admin;
import io.spool.api.stream.PublishResult;
import io.spool.api.stream.StreamRecordHandler;
import io.spool.api.stream.TopicPartition;
import io.spool.wire.ConnectionLostException;
import io.spool.wire.ServerUnreachableException;
import io.spool.wire.client.ClientConfig;
import io.spool.wire.client.ProducerConfig;
import io.spool.wire.client.RemoteProducer;
import io.spool.wire.client.RemoteStreamConsumer;
import io.spool.wire.client.SpoolClient;

import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;

/** A running server reached over one client connection. Not thread-safe. */
final class RemoteEndpoint implements Endpoint
{
    private static final int MAX_POLL_BYTES = 1 << 20;

    private final String address;
    private final SpoolClient client;
    private final GroupsAndExchanges groupsAndExchanges;

    /**
     * @throws ConnectionLostException when the server cannot be reached or closes the connection; without TLS the
     *                                 message adds that a server that serves TLS needs {@code --tls-trust}.
     */
    RemoteEndpoint(final ClientConfig config)
    {
        this.address = config.host() + ":" + config.port();
        this.client = connect(config);
        this.groupsAndExchanges = new RemoteGroupsAndExchanges(client);
    }

    private SpoolClient connect(final ClientConfig config)
    {
        try
        {
            return SpoolClient.connect(config);
        }
        catch (final ServerUnreachableException ex)
        {
            throw new ServerUnreachableException(where() + ": " + ex.getMessage());
        }
        catch (final ConnectionLostException ex)
        {
            if (config.tlsTrustedCertificates() != null)
            {
                throw ex;
            }
            // A TLS server closes a plain connection without a word (there is no channel to send one on), so the
            // client only sees a close; the user is the one who knows whether the server was started with TLS.
            throw new ConnectionLostException(where() + ": " + ex.getMessage() +
                " (if the server serves TLS, connect with --tls-trust FILE.pem)");
        }
    }

    @Override
    public String where()
    {
        return "server " + address;
    }

    @Override
    public Admin admin()
    {
        return client.admin();
    }

    @Override
    public GroupsAndExchanges groupsAndExchanges()
    {
        return groupsAndExchanges;
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
        final RemoteStreamConsumer consumer = client.newStreamReader();
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
