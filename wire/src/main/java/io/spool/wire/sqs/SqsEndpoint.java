package io.spool.wire.sqs;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.spool.Spool;
import io.spool.log.FileSync;
import io.spool.wire.Transport;

import java.net.InetSocketAddress;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * An SQS-compatible HTTP endpoint over an engine: the AWS SDKs, the AWS CLI and other SQS clients work against it
 * unchanged (an endpoint override and any credentials, or the configured token as the access key id). A queue is a
 * subscription (see {@link Queues}), so its messages can also be read as a stream. Both of SQS's wire forms are
 * served, the AWS JSON 1.0 protocol and the query protocol. Signatures are not verified. Thread-safe.
 * <pre>{@code
 * try (SqsEndpoint sqs = SqsEndpoint.start(spool, SqsConfig.builder(dataDir.resolve("sqs")).build())) {
 *     // SqsClient.builder().endpointOverride(URI.create(sqs.url())) ...
 * }
 * }</pre>
 */
public final class SqsEndpoint implements AutoCloseable
{
    private static final System.Logger LOGGER = System.getLogger(SqsEndpoint.class.getName());
    /** Threads for what waits on a subscription's agent or writes files: short waits, never a long poll. */
    private static final int ENGINE_THREADS = 4;
    private static final int ENGINE_QUEUE = 4096;

    private final EventLoopGroup bossGroup;
    private final EventLoopGroup workerGroup;
    private final ThreadPoolExecutor engineExecutor;
    private final MessageMoves moves;
    private final Channel serverChannel;

    private SqsEndpoint(final Spool engine, final SqsConfig config)
    {
        final QueueNames names = new QueueNames(config.region(), config.account());
        final FileSync sync = engine.streams().logStore().fileSync();
        final Queues queues = new Queues(engine, new QueueCatalog(config.directory().resolve("queues"), sync), names);
        final ReceiptHandles handles = ReceiptHandles.keyedBy(sync, config.directory().resolve("receipt-handle.key"));
        this.moves = new MessageMoves(engine, queues, new MoveTaskFiles(config.directory().resolve("move-tasks"),
            sync));
        this.engineExecutor = new ThreadPoolExecutor(ENGINE_THREADS, ENGINE_THREADS, 30, TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(ENGINE_QUEUE), new DefaultThreadFactory("spool-sqs-engine", true));
        this.engineExecutor.allowCoreThreadTimeOut(true);
        final Receiver receiver = new Receiver(handles, names, engine.streams().clock());
        final SqsActions actions = new SqsActions(queues, new Sender(engine), receiver, moves, engineExecutor);
        final Transport transport = Transport.select(true);
        this.bossGroup = transport.newEventLoopGroup(1, "spool-sqs-accept");
        this.workerGroup = transport.newEventLoopGroup(config.ioThreads(), "spool-sqs-io");
        final String defaultHost = config.host() + ":" + config.port();
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
                        channel.pipeline().addLast(new HttpServerCodec(), new Aggregator(config.maxRequestBytes()),
                            new SqsHttpHandler(actions, config.token(), defaultHost));
                    }
                })
                .bind(config.host(), config.port())
                .syncUninterruptibly()
                .channel();
        }
        catch (final RuntimeException ex)
        {
            shutDown();
            throw ex;
        }
        LOGGER.log(System.Logger.Level.INFO, "Spool SQS endpoint listening on " + serverChannel.localAddress());
    }

    /** Serves {@code engine}, which stays the caller's to close after the endpoint. */
    public static SqsEndpoint start(final Spool engine, final SqsConfig config)
    {
        return new SqsEndpoint(engine, config);
    }

    public int port()
    {
        return ((InetSocketAddress)serverChannel.localAddress()).getPort();
    }

    public String host()
    {
        return ((InetSocketAddress)serverChannel.localAddress()).getHostString();
    }

    /** The URL clients take as their endpoint, {@code http://HOST:PORT}. */
    public String url()
    {
        return "http://" + host() + ":" + port();
    }

    /** Returns once the message move tasks have moved all that the engine clock's time allows. */
    void syncMoveTasks()
    {
        moves.sync();
    }

    @Override
    public void close()
    {
        serverChannel.close().syncUninterruptibly();
        shutDown();
    }

    private void shutDown()
    {
        moves.close();
        bossGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS);
        workerGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        engineExecutor.shutdown();
        try
        {
            engineExecutor.awaitTermination(5, TimeUnit.SECONDS);
        }
        catch (final InterruptedException ex)
        {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Refuses a request body past the limit with the SQS error a client expects. The connection stays: the rest of
     * the body is read and dropped, so that a client still sending it gets to read the answer.
     */
    private static final class Aggregator extends HttpObjectAggregator
    {
        private final int maxBytes;

        Aggregator(final int maxBytes)
        {
            super(maxBytes);
            this.maxBytes = maxBytes;
        }

        @Override
        protected void handleOversizedMessage(final ChannelHandlerContext ctx, final HttpMessage oversized)
        {
            final boolean json = oversized.headers().contains("X-Amz-Target");
            ctx.writeAndFlush(SqsHttpHandler.error(SqsError.REQUEST_TOO_LARGE.with("The request is larger than " +
                maxBytes + " bytes, the most this endpoint reads."), json, UUID.randomUUID().toString()),
                ctx.voidPromise());
        }
    }
}
