package io.spool.wire;

import io.spool.Spool;
import io.spool.api.log.LogConfig;
import io.spool.api.stream.TopicConfig;
import io.spool.wire.client.ClientConfig;
import io.spool.wire.client.SpoolClient;
import io.spool.wire.server.ServerConfig;
import io.spool.wire.server.SpoolServer;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.SystemEpochClock;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * An embedded engine served on an ephemeral loopback port, and the clients a test opened to it. Not thread-safe.
 */
public final class WireFixture implements AutoCloseable
{
    /** Small segments keep pre-allocated files small. */
    public static final LogConfig SMALL_LOG = LogConfig.builder().segmentBytes(1 << 20).maxRecordBytes(256 * 1024).build();

    private final Spool spool;
    private final SpoolServer server;
    private final List<SpoolClient> clients = new ArrayList<>();

    public WireFixture(final Path dataDir)
    {
        this(dataDir, ServerConfig.builder());
    }

    public WireFixture(final Path dataDir, final ServerConfig.Builder config)
    {
        this(dataDir, config, SystemEpochClock.INSTANCE);
    }

    /** The engine reads {@code clock} for every timeout, so a test moves time by hand with a cached clock. */
    public WireFixture(final Path dataDir, final ServerConfig.Builder config, final EpochClock clock)
    {
        this.spool = Spool.builder(dataDir).backgroundMaintenance(false).clock(clock).open();
        this.server = SpoolServer.start(spool, config.port(0).ioThreads(2).build());
    }

    public Spool spool()
    {
        return spool;
    }

    public SpoolServer server()
    {
        return server;
    }

    public ClientConfig.Builder clientConfig()
    {
        return ClientConfig.builder().host("127.0.0.1").port(server.port()).requestTimeoutMillis(10_000);
    }

    public SpoolClient connect()
    {
        return connect(clientConfig());
    }

    public SpoolClient connect(final ClientConfig.Builder config)
    {
        final SpoolClient client = SpoolClient.connect(config.build());
        clients.add(client);
        return client;
    }

    public static TopicConfig topic(final int partitions)
    {
        return TopicConfig.of(partitions).withLog(SMALL_LOG);
    }

    /** Waits for {@code condition} up to {@code timeout}, checking every millisecond or so. */
    public static boolean await(final BooleanSupplier condition, final Duration timeout)
    {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadline > 0)
            {
                return false;
            }
            Thread.onSpinWait();
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
        return true;
    }

    @Override
    public void close()
    {
        clients.forEach(SpoolClient::close);
        server.close();
        spool.close();
    }
}
