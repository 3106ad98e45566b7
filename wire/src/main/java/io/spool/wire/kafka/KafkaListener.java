package io.spool.wire.kafka;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.ssl.SslContext;
import io.spool.Spool;
import io.spool.wire.TlsContexts;
import io.spool.wire.Transport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;


/**
 * Serves a Spool engine over Kafka's protocol, so that stock Kafka clients (kafka-clients 3.9 and 4.x, librdkafka
 * and the clients built on it, Kafka's own tools) produce, consume, administer and share-consume its topics: one
 * node that leads every partition and coordinates every group. Bound to 127.0.0.1 unless told otherwise; over TLS
 * and behind SASL/PLAIN with the token when configured. Thread-safe.
 */
public final class KafkaListener implements AutoCloseable
{
    private static final Logger LOGGER = LoggerFactory.getLogger(KafkaListener.class);
    /** A Kafka request starts with its size as a 4-byte big-endian integer. */
    private static final int SIZE_PREFIX = 4;

    private final EventLoopGroup bossGroup;
    private final EventLoopGroup workerGroup;
    private final ExecutorService adminExecutor;
    private final KafkaBroker broker;
    private final Channel serverChannel;

    private KafkaListener(final Spool engine, final KafkaListenerConfig config, final KafkaCluster cluster)
    {
        if (cluster != null && cluster.nodeId() != config.nodeId())
        {
            throw new IllegalArgumentException("the Kafka listener's node id " + config.nodeId() + " is not its " +
                "cluster node's id " + cluster.nodeId() + ": clients would take one node for two brokers");
        }
        final SslContext tls = config.tlsCertificateChain() == null ? null :
            TlsContexts.server(config.tlsCertificateChain(), config.tlsPrivateKey());
        final Transport transport = Transport.select(config.preferNativeTransport());
        this.bossGroup = transport.newEventLoopGroup(1, "spool-kafka-accept");
        this.workerGroup = transport.newEventLoopGroup(config.ioThreads(), "spool-kafka-io");
        this.adminExecutor = Executors.newSingleThreadExecutor(runnable ->
        {
            final Thread thread = new Thread(runnable, "spool-kafka-admin");
            thread.setDaemon(true);
            return thread;
        });
        this.broker = new KafkaBroker(engine, config, cluster, adminExecutor, workerGroup);
        try
        {
            this.serverChannel = new ServerBootstrap()
                .group(bossGroup, workerGroup)
                .channel(transport.serverChannelType())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>()
                {
                    @Override
                    protected void initChannel(final SocketChannel channel)
                    {
                        if (tls != null)
                        {
                            channel.pipeline().addLast(tls.newHandler(channel.alloc()));
                        }
                        channel.pipeline()
                            .addLast(new LengthFieldBasedFrameDecoder(config.maxRequestBytes() + SIZE_PREFIX, 0,
                                SIZE_PREFIX, 0, SIZE_PREFIX))
                            .addLast(new KafkaConnection(broker));
                    }
                })
                .bind(config.host(), config.port())
                .syncUninterruptibly()
                .channel();
        }
        catch (final RuntimeException ex)
        {
            shutdownThreads();
            throw ex;
        }
        broker.boundPort(port());
        LOGGER.info("Spool's Kafka listener on " + serverChannel.localAddress() + " (" + transport +
            (tls == null ? "" : ", TLS") + (config.token() == null ? "" : ", SASL/PLAIN") + ")");
    }

    /** Serves {@code engine} over Kafka's protocol; the engine stays the caller's to close after the listener. */
    public static KafkaListener start(final Spool engine, final KafkaListenerConfig config)
    {
        return new KafkaListener(engine, config, null);
    }

    /**
     * Serves {@code engine} as one node of {@code cluster}: the broker id is the node's, Metadata names every node's
     * listener and each partition's leader, and produce goes through the partition's group
     * ({@code docs/guide/cluster.md}). The engine stays the caller's to close after the listener.
     */
    public static KafkaListener start(final Spool engine, final KafkaListenerConfig config,
        final KafkaCluster cluster)
    {
        return new KafkaListener(engine, config, cluster);
    }

    /** The port the listener is bound to (the one picked when the configured port was 0). */
    public int port()
    {
        return ((InetSocketAddress)serverChannel.localAddress()).getPort();
    }

    public String host()
    {
        return ((InetSocketAddress)serverChannel.localAddress()).getHostString();
    }

    /** {@code host:port}, as Kafka clients take it for {@code bootstrap.servers}. */
    public String bootstrapServers()
    {
        return host() + ":" + port();
    }

    /** Stops accepting, closes every connection; the engine is left open. */
    @Override
    public void close()
    {
        serverChannel.close().syncUninterruptibly();
        shutdownThreads();
    }

    private void shutdownThreads()
    {
        bossGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        workerGroup.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        broker.close();
        adminExecutor.shutdown();
        try
        {
            adminExecutor.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }
}
