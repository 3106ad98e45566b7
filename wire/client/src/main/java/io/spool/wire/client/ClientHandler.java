package io.spool.wire.client;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import io.spool.wire.ErrorDescriptor;
import io.spool.wire.FrameDescriptor;
import io.spool.wire.OpCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands each response to the request waiting for it, sends a heartbeat when the client has written nothing for a
 * heartbeat interval, and closes when the server has been silent for several. Not thread-safe: one per connection,
 * called on its event loop.
 */
final class ClientHandler extends ChannelInboundHandlerAdapter
{
    private static final Logger LOGGER = LoggerFactory.getLogger(ClientHandler.class);

    private final ClientConnection connection;

    ClientHandler(final ClientConnection connection)
    {
        this.connection = connection;
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        final ByteBuf frame = (ByteBuf)msg;
        try
        {
            final int flags = FrameDescriptor.flags(frame);
            final int opCode = FrameDescriptor.opCode(frame);
            final long correlationId = FrameDescriptor.correlationId(frame);
            frame.skipBytes(FrameDescriptor.HEADER_LENGTH);
            if (!FrameDescriptor.isResponse(flags))
            {
                final PushHandler push = connection.pushHandler((int)correlationId);
                if (push != null)
                {
                    push.onPush(opCode, frame);
                }
                return;
            }
            final ResponseHandler handler = connection.take(correlationId);
            if (handler != null)
            {
                if (FrameDescriptor.isError(flags))
                {
                    handler.onError(ErrorDescriptor.decode(frame));
                }
                else
                {
                    handler.onResponse(frame);
                }
            }
            else if (FrameDescriptor.isError(flags))
            {
                final String reason = ErrorDescriptor.decode(frame).getMessage();
                if (opCode == OpCode.CONSUMER_SETTLE)
                {
                    LOGGER.debug("a push settlement was refused: " + reason);
                }
                else
                {
                    connection.closingBecause("the server closed the connection: " + reason);
                }
            }
        }
        finally
        {
            frame.release();
        }
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object event) throws Exception
    {
        if (event instanceof IdleStateEvent)
        {
            if (((IdleStateEvent)event).state() == IdleState.READER_IDLE)
            {
                connection.closingBecause("the server sent nothing, not even a heartbeat answer, for too long");
                ctx.close();
            }
            else
            {
                final ByteBuf ping = ctx.alloc().ioBuffer(FrameDescriptor.HEADER_LENGTH);
                FrameDescriptor.finish(ping, FrameDescriptor.begin(ping, OpCode.PING, 0, 0));
                ctx.writeAndFlush(ping, ctx.voidPromise());
            }
            return;
        }
        super.userEventTriggered(ctx, event);
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) throws Exception
    {
        connection.onClosed();
        super.channelInactive(ctx);
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        LOGGER.warn("closing the connection to " + ctx.channel().remoteAddress() + " after an error", cause);
        connection.closingBecause("the connection failed: " + cause);
        ctx.close();
    }
}
