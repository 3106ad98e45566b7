package io.spool.wire.client;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.spool.api.Messaging;
import io.spool.api.stream.PublishListener;
import io.spool.wire.ConnectionLostException;
import io.spool.wire.FrameDecoderFactory;
import io.spool.wire.Heartbeats;
import io.spool.wire.HelloDescriptor;
import io.spool.wire.ServerUnreachableException;
import io.spool.wire.TlsContexts;
import io.spool.wire.Transport;

import java.util.concurrent.TimeUnit;

/**
 * A connection to a Spool server: the handshake is done when {@link #connect} returns; producers, consumers and
 * the admin handle made from it share the connection. Thread-safe; the handles it makes say what they are.
 */
public final class SpoolClient implements Messaging
{
    private static final String HANDLER = "spool-client";

    private final ClientConfig config;
    private final EventLoopGroup group;
    private final ClientConnection connection;
    private final ServerLimits limits;
    private final SpoolAdmin admin;
    private final java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();

    private SpoolClient(final ClientConfig config, final EventLoopGroup group, final ClientConnection connection,
        final ServerLimits limits)
    {
        this.config = config;
        this.group = group;
        this.connection = connection;
        this.limits = limits;
        this.admin = new SpoolAdmin(connection);
    }

    /**
     * Connects and shakes hands.
     *
     * @throws io.spool.wire.AuthenticationException when the server refuses the token.
     * @throws ConnectionLostException when the server cannot be reached, closes the connection, or the TLS
     *                                 handshake fails (the server's certificate is not trusted or names another host).
     * @throws IllegalArgumentException when the trusted certificates cannot be read.
     */
    public static SpoolClient connect(final ClientConfig config)
    {
        final SslContext tls = config.tlsTrustedCertificates() == null ? null :
            TlsContexts.client(config.tlsTrustedCertificates());
        final Transport transport = Transport.select(config.preferNativeTransport());
        final EventLoopGroup group = transport.newEventLoopGroup(1, "spool-client");
        try
        {
            final ClientConnection connection = new ClientConnection(config.requestTimeoutMillis());
            final ChannelFuture connected = new Bootstrap()
                .group(group)
                .channel(transport.channelType())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, config.connectTimeoutMillis())
                .handler(new ChannelInitializer<SocketChannel>()
                {
                    @Override
                    protected void initChannel(final SocketChannel ch)
                    {
                        connection.attach(ch);
                        if (tls != null)
                        {
                            ch.pipeline().addLast(tls.newHandler(ch.alloc(), config.host(), config.port()));
                        }
                        ch.pipeline().addLast(FrameDecoderFactory.newDecoder(config.maxFrameLength()))
                            .addLast(HANDLER, new ClientHandler(connection));
                    }
                })
                .connect(config.host(), config.port())
                .awaitUninterruptibly();
            if (!connected.isSuccess())
            {
                throw new ServerUnreachableException("cannot connect to " + config.host() + ":" + config.port() +
                    ": " + reason(connected.cause()));
            }
            final Channel channel = connected.channel();
            final ServerLimits limits = handshake(config, connection);
            channel.pipeline().addBefore(HANDLER, "idle",
                Heartbeats.clientIdleHandler(limits.heartbeatIntervalMillis()));
            return new SpoolClient(config, group, connection, limits);
        }
        catch (final RuntimeException ex)
        {
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw ex;
        }
    }

    private static ServerLimits handshake(final ClientConfig config, final ClientConnection connection)
    {
        final ByteBuf hello = connection.alloc().ioBuffer(64);
        HelloDescriptor.encodeRequest(hello, 0, config.token() == null ? "" : config.token(), config.clientName());
        return connection.call(hello, body -> new ServerLimits(body.readIntLE(), body.readIntLE(), body.readIntLE()), 0);
    }

    ClientConnection connection()
    {
        return connection;
    }

    @Override
    public SpoolAdmin admin()
    {
        return admin;
    }

    /**
     * A producer whose records are confirmed to {@code listener} (with the correlation given to each send), on the
     * connection's thread.
     */
    public RemoteProducer newProducer(final ProducerConfig producerConfig, final PublishListener listener)
    {
        return new RemoteProducer(connection, admin, limits, producerConfig, listener);
    }

    /**
     * A producer with the default settings ({@link ProducerConfig#defaults()}) whose sends are followed through
     * their futures; a send by correlation that fails is logged, since no listener hears of it.
     */
    @Override
    public RemoteProducer newProducer()
    {
        return newProducer(ProducerConfig.defaults(), FailuresLogged.INSTANCE);
    }

    /** Exchanges: declare, bind and route. */
    public RemoteExchanges exchanges()
    {
        return new RemoteExchanges(connection);
    }

    /** Consumer groups: membership, assignments and committed offsets. */
    public RemoteGroups groups()
    {
        return new RemoteGroups(connection);
    }

    /** A subscription on the server, read as a queue (pull or push). */
    @Override
    public RemoteSubscription subscription(final String name)
    {
        return new RemoteSubscription(connection, name);
    }

    /** A reader of the partitions it is assigned, by offset. */
    @Override
    public RemoteStreamConsumer newStreamReader()
    {
        return new RemoteStreamConsumer(connection, admin);
    }

    /** What the server announced in the handshake. */
    public ServerLimits serverLimits()
    {
        return limits;
    }

    public boolean isConnected()
    {
        return connection.isOpen();
    }

    public ClientConfig config()
    {
        return config;
    }

    /** Why a connect failed, in the words of the operating system; a refusal says what it most likely means. */
    private static String reason(final Throwable cause)
    {
        if (cause instanceof java.net.ConnectException && String.valueOf(cause.getMessage()).contains("refused"))
        {
            return "connection refused (is a Spool server listening there?)";
        }
        return cause.getMessage() == null ? cause.toString() : cause.getMessage();
    }

    /** Closes the connection; requests still waiting fail with {@code ConnectionLostException}. Idempotent. */
    @Override
    public void close()
    {
        if (!closed.compareAndSet(false, true))
        {
            return;
        }
        connection.close();
        group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }
}
