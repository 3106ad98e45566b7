package io.spool.wire.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.spool.wire.ErrorCode;
import io.spool.wire.ErrorDescriptor;
import io.spool.wire.FrameDecoderFactory;
import io.spool.wire.Heartbeats;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Builds each accepted connection's pipeline (TLS when configured, frame decoder, idle detection, connection
 * handler) and refuses connections above the limit with an error reply. Thread-safe.
 */
final class ServerChannelInitializer extends ChannelInitializer<SocketChannel>
{
    private static final Logger LOGGER = LoggerFactory.getLogger(ServerChannelInitializer.class);

    private final ServerContext server;
    private final SslContext tls;
    private final AtomicInteger connections = new AtomicInteger();

    /** @param tls null for plain TCP. */
    ServerChannelInitializer(final ServerContext server, final SslContext tls)
    {
        this.server = server;
        this.tls = tls;
    }

    int connectionCount()
    {
        return connections.get();
    }

    @Override
    protected void initChannel(final SocketChannel channel)
    {
        final int open = connections.incrementAndGet();
        channel.closeFuture().addListener(future -> connections.decrementAndGet());
        if (tls != null)
        {
            channel.pipeline().addLast(tls.newHandler(channel.alloc()));
        }
        if (open > server.config().maxConnections())
        {
            LOGGER.warn("refusing connection from " + channel.remoteAddress() + ": " +
                server.config().maxConnections() + " connections are open");
            channel.pipeline().addLast(new Refusal(server.config().maxConnections()));
            return;
        }
        final ServerConfig config = server.config();
        channel.pipeline()
            .addLast(FrameDecoderFactory.newDecoder(config.maxFrameLength()))
            .addLast(Heartbeats.serverIdleHandler(config.heartbeatIntervalMillis()))
            .addLast(new ConnectionHandler(server));
    }

    /** Tells a connection above the limit why it is closed. */
    private static final class Refusal extends ChannelInboundHandlerAdapter
    {
        private final int limit;

        Refusal(final int limit)
        {
            this.limit = limit;
        }

        @Override
        public void channelRead(final ChannelHandlerContext ctx, final Object msg)
        {
            io.netty.util.ReferenceCountUtil.release(msg);
        }

        @Override
        public void channelActive(final ChannelHandlerContext ctx)
        {
            final ByteBuf out = ctx.alloc().ioBuffer(256);
            ErrorDescriptor.encode(out, 0, 0, ErrorCode.TOO_MANY_CONNECTIONS, 0, 0, 0, "",
                "the server holds its limit of " + limit + " connections");
            LastWord.sendAndClose(ctx, out);
        }
    }
}
