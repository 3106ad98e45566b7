package io.spool.wire.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.socket.DuplexChannel;

import java.util.concurrent.TimeUnit;

/**
 * Sends a connection's last error reply and closes it so the client can read the reply: the server stops writing
 * (half-close) and closes after a short linger. Closing at once while the client's bytes are still unread would make
 * the kernel reset the connection, and a reset can destroy the reply before the client reads it. Stateless,
 * thread-safe.
 */
final class LastWord
{
    static final long LINGER_MILLIS = 1_000;

    private LastWord()
    {
    }

    static void sendAndClose(final ChannelHandlerContext ctx, final ByteBuf errorReply)
    {
        sendAndClose(ctx, errorReply, LINGER_MILLIS);
    }

    /**
     * As {@link #sendAndClose(ChannelHandlerContext, ByteBuf)}, closing after {@code lingerMillis} at the latest; a
     * client that reads the reply and closes first ends the connection at once.
     */
    static void sendAndClose(final ChannelHandlerContext ctx, final ByteBuf errorReply, final long lingerMillis)
    {
        ctx.writeAndFlush(errorReply).addListener(written ->
        {
            if (ctx.channel() instanceof DuplexChannel)
            {
                ((DuplexChannel)ctx.channel()).shutdownOutput();
            }
            ctx.executor().schedule(() -> ctx.close(), lingerMillis, TimeUnit.MILLISECONDS);
        });
    }
}
