package io.spool.wire.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import io.spool.Spool;
import io.spool.api.MetricSample;
import io.spool.wire.TlsContexts;
import io.spool.wire.Transport;
import io.spool.wire.kafka.KafkaCluster;
import io.spool.wire.kafka.KafkaListener;
import io.spool.wire.kafka.KafkaListenerConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Serves a Spool engine over TCP with the Spool protocol ({@code docs/design/protocol.md}): native epoll where the platform
 * has it, NIO otherwise; bound to 127.0.0.1 unless told otherwise; over TLS when given a certificate and key.
 * Thread-safe.
 */
public final class SpoolServer implements AutoCloseable
{
    private static final Logger LOGGER = LoggerFactory.getLogger(SpoolServer.class);
    /** Queue calls that wait (long-poll receives, consumer starts) at once; more are refused as back-pressure. */
    private static final int MAX_QUEUE_THREADS = 256;
    /**
     * Connections accepted beyond {@link ServerConfig#maxConnections()} that may be open at once, handshaking or
     * being told there is no room; more wait in the kernel's accept queue.
     */
    static final int MAX_HANDSHAKING = 64;

    private final Spool engine;
    private final boolean ownsEngine;
    private final Transport transport;
    private final EventLoopGroup bossGroup;
    private final EventLoopGroup workerGroup;
    private final ExecutorService adminExecutor;
    private final ExecutorService queueExecutor;
    private final ConnectionLimits sessions;
    private final AcceptGate acceptGate;
    private final AtomicInteger pausedConnections = new AtomicInteger();
    private final RequestCounters counters = new RequestCounters();
    private final Channel serverChannel;
    private final KafkaListener kafka;

    private SpoolServer(final Spool engine, final boolean ownsEngine, final ServerConfig config,
        final ReplicatedPublishes replicated, final KafkaCluster kafkaCluster, final HeldPartitions held)
    {
        final SslContext tls = config.tlsCertificateChain() == null ? null :
            TlsContexts.server(config.tlsCertificateChain(), config.tlsPrivateKey());
        this.engine = engine;
        this.ownsEngine = ownsEngine;
        this.transport = Transport.select(config.preferNativeTransport());
        this.bossGroup = transport.newEventLoopGroup(1, "spool-accept");
        this.workerGroup = transport.newEventLoopGroup(config.ioThreads(), "spool-io");
        this.adminExecutor = Executors.newSingleThreadExecutor(daemonThreads("spool-admin"));
        this.queueExecutor = new ThreadPoolExecutor(0, MAX_QUEUE_THREADS, 30, TimeUnit.SECONDS,
            new SynchronousQueue<>(), daemonThreads("spool-queue"));
        this.sessions = new ConnectionLimits(config.maxConnections(), config.maxConnectionsPerAddress());
        this.acceptGate = new AcceptGate(config.maxConnections() + MAX_HANDSHAKING);
        final ServerChannelInitializer initializer = new ServerChannelInitializer(
            new ServerContext(config, engine, new AdminOperations(engine, adminExecutor, this::metrics,
                config.writesRefused(), replicated, held),
                new ExchangeOperations(engine.router(), adminExecutor), adminExecutor, queueExecutor,
                pausedConnections, counters, sessions, replicated, held), tls);
        Channel bound = null;
        try
        {
            bound = new ServerBootstrap()
                .group(bossGroup, workerGroup)
                .channel(transport.serverChannelType())
                .option(ChannelOption.SO_REUSEADDR, true)
                .handler(acceptGate)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(initializer)
                .bind(config.host(), config.port())
                .syncUninterruptibly()
                .channel();
            this.kafka = config.kafkaPort() < 0 ? null : KafkaListener.start(engine, KafkaListenerConfig.builder()
                .host(config.kafkaHost()).port(config.kafkaPort()).token(config.token())
                .nodeId(kafkaCluster == null ? 0 : kafkaCluster.nodeId())
                .tls(config.tlsCertificateChain(), config.tlsPrivateKey()).ioThreads(config.ioThreads()).build(),
                kafkaCluster);
        }
        catch (final RuntimeException ex)
        {
            if (bound != null)
            {
                bound.close().syncUninterruptibly();
            }
            shutdownThreads();
            throw ex;
        }
        this.serverChannel = bound;
        LOGGER.info("Spool server listening on " + serverChannel.localAddress() + " (" + transport +
            (tls == null ? ")" : ", TLS)"));
    }

    private static ThreadFactory daemonThreads(final String name)
    {
        final AtomicInteger count = new AtomicInteger();
        return runnable ->
        {
            final Thread thread = new Thread(runnable, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    /** Serves {@code engine}, which stays the caller's to close after the server. */
    public static SpoolServer start(final Spool engine, final ServerConfig config)
    {
        return new SpoolServer(engine, false, config, null, null, HeldPartitions.ALL);
    }

    /**
     * Serves {@code engine} as a cluster node does: {@code PUBLISH_SEQUENCED} batches go to {@code replicated}.
     * The engine stays the caller's to close after the server.
     */
    public static SpoolServer start(final Spool engine, final ServerConfig config,
        final ReplicatedPublishes replicated)
    {
        return new SpoolServer(engine, false, config, replicated, null, HeldPartitions.ALL);
    }

    /**
     * Serves {@code engine} as a cluster node does, and its Kafka listener (when {@link ServerConfig#kafkaPort()} asks
     * for one) as one broker of {@code kafkaCluster}; reads of a partition {@code held} says the node holds no copy
     * of are refused. The engine stays the caller's to close after the server.
     */
    public static SpoolServer start(final Spool engine, final ServerConfig config,
        final ReplicatedPublishes replicated, final KafkaCluster kafkaCluster, final HeldPartitions held)
    {
        return new SpoolServer(engine, false, config, replicated, kafkaCluster, held);
    }

    /** Opens the engine on {@code dataDir} and serves it; {@link #close()} closes both. */
    public static SpoolServer open(final Path dataDir, final ServerConfig config)
    {
        final Spool engine = Spool.open(dataDir);
        try
        {
            return new SpoolServer(engine, true, config, null, null, HeldPartitions.ALL);
        }
        catch (final RuntimeException ex)
        {
            engine.close();
            throw ex;
        }
    }

    /** The port the server listens on (the one picked when the configured port was 0). */
    public int port()
    {
        return ((InetSocketAddress)serverChannel.localAddress()).getPort();
    }

    public String host()
    {
        return ((InetSocketAddress)serverChannel.localAddress()).getHostString();
    }

    public Transport transport()
    {
        return transport;
    }

    public Spool engine()
    {
        return engine;
    }

    /** The Kafka listener serving the same engine, or null when {@link ServerConfig#kafkaPort()} is -1. */
    public KafkaListener kafkaListener()
    {
        return kafka;
    }

    /** Connections past their handshake and open now, the ones {@link ServerConfig#maxConnections()} bounds. */
    public int connectionCount()
    {
        return sessions.sessions();
    }

    /** Connections accepted and not closed yet, handshaken or not: the descriptors the server holds for clients. */
    public int acceptedConnectionCount()
    {
        return acceptGate.openConnections();
    }

    /**
     * Connections the server does not read now: their answers go unread (a slow or stuck reader), or their records
     * published and not yet confirmed reached the bound. Such a connection is read again when it catches up, or
     * closed when it stays silent for three heartbeat intervals.
     */
    public int pausedConnectionCount()
    {
        return pausedConnections.get();
    }

    /** Blocks until the server is closed (by {@link #close()} from another thread); for a command that serves. */
    /**
     * The engine's figures ({@link Spool#metrics()}) and the server's: connections open, paused and accepted, and
     * requests and error replies by operation. What a METRICS request answers.
     */
    public List<MetricSample> metrics()
    {
        final List<MetricSample> samples = new ArrayList<>(engine.metrics());
        samples.add(MetricSample.gauge("spool_server_connections", "Connections past their handshake, open now.",
            Map.of(), connectionCount()));
        samples.add(MetricSample.gauge("spool_server_accepted_connections",
            "Connections accepted and not closed yet, handshaken or not.", Map.of(), acceptedConnectionCount()));
        samples.add(MetricSample.gauge("spool_server_paused_connections",
            "Connections the server does not read now (answers unread or unconfirmed publishes at the bound).",
            Map.of(), pausedConnectionCount()));
        counters.addTo(samples);
        return samples;
    }

    public void awaitClose() throws InterruptedException
    {
        serverChannel.closeFuture().await();
    }

    /** Stops accepting, closes every connection, and closes the engine if the server opened it. */
    @Override
    public void close()
    {
        if (kafka != null)
        {
            kafka.close();
        }
        serverChannel.close().syncUninterruptibly();
        shutdownThreads();
        if (ownsEngine)
        {
            engine.close();
        }
    }

    private void shutdownThreads()
    {
        bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workerGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        adminExecutor.shutdown();
        queueExecutor.shutdown();
        try
        {
            adminExecutor.awaitTermination(2, TimeUnit.SECONDS);
            queueExecutor.awaitTermination(12, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
