package io.spool.perf.cli;

import io.spool.Spool;
import io.spool.SpoolProducer;
import io.spool.api.Admin;
import io.spool.api.stream.PublishResult;
import io.spool.api.stream.StreamRecordHandler;
import io.spool.api.stream.TopicPartition;
import io.spool.stream.ConsumerConfig;
import io.spool.stream.StreamConsumer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.concurrent.CompletableFuture;

/**
 * An engine the command opens on a data directory itself; refused with a clear error when a server (or another
 * engine) holds the directory. Not thread-safe.
 */
final class EmbeddedEndpoint implements Endpoint
{
    /** Bytes a poll asks for at most; a poll still hands over at least one record. */
    private static final int MAX_POLL_BYTES = 1 << 20;

    private final Path dataDirectory;
    private final Spool spool;
    private final GroupsAndExchanges groupsAndExchanges;

    EmbeddedEndpoint(final Path dataDirectory)
    {
        this.dataDirectory = dataDirectory;
        this.spool = Spool.builder(dataDirectory).backgroundMaintenance(false).open();
        this.groupsAndExchanges = new EmbeddedGroupsAndExchanges(spool);
    }

    @Override
    public String where()
    {
        return "data directory " + dataDirectory;
    }

    @Override
    public Admin admin()
    {
        return spool.admin();
    }

    @Override
    public GroupsAndExchanges groupsAndExchanges()
    {
        return groupsAndExchanges;
    }

    @Override
    public Sender newSender()
    {
        final SpoolProducer producer = spool.newProducer();
        return new Sender()
        {
            @Override
            public CompletableFuture<PublishResult> send(final String topic,
                final byte[] key, final byte[] value)
            {
                return producer.send(topic, key, value);
            }

            @Override
            public void close()
            {
                // every send completes on its own future; the producer holds nothing to flush
            }
        };
    }

    @Override
    public Reader newReader()
    {
        final StreamConsumer consumer = spool.newConsumer(ConsumerConfig.standalone());
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
            public int poll(final StreamRecordHandler handler, final int maxRecords,
                final Duration timeout)
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
        spool.close();
    }
}
