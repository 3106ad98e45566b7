package io.spool.wire.server;

import io.netty.channel.ChannelInitializer;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.SslContext;
import io.spool.wire.FrameDecoderFactory;
import io.spool.wire.Heartbeats;

/**
 * Builds each accepted connection's pipeline: TLS when configured, frame decoder, idle detection, connection
 * handler. Thread-safe.
 */
final class ServerChannelInitializer extends ChannelInitializer<SocketChannel>
{
    private final ServerContext server;
    private final SslContext tls;

    /** @param tls null for plain TCP. */
    ServerChannelInitializer(final ServerContext server, final SslContext tls)
    {
        this.server = server;
        this.tls = tls;
    }

    @Override
    protected void initChannel(final SocketChannel channel)
    {
        if (tls != null)
        {
            channel.pipeline().addLast(tls.newHandler(channel.alloc()));
        }
        final ServerConfig config = server.config();
        channel.pipeline()
            .addLast(FrameDecoderFactory.newDecoder(config.maxFrameLength()))
            .addLast(Heartbeats.serverIdleHandler(config.heartbeatIntervalMillis()))
            .addLast(new ConnectionHandler(server));
    }
}
