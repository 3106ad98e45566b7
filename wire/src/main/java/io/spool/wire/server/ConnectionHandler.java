package io.spool.wire.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.handler.timeout.IdleStateEvent;
import io.spool.api.log.BackPressureException;
import io.spool.wire.ErrorCode;
import io.spool.wire.ErrorDescriptor;
import io.spool.wire.Fields;
import io.spool.wire.FrameDescriptor;
import io.spool.wire.HelloDescriptor;
import io.spool.wire.OpCode;
import io.spool.wire.ProtocolException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.concurrent.RejectedExecutionException;
import javax.net.ssl.SSLException;

/**
 * One client connection: checks each frame's header, demands the handshake first, dispatches operations and turns
 * their exceptions into error replies. A frame whose body is bad gets an error reply and the connection goes on; a
 * frame that breaks the framing (bad length, too large, unknown version) or a wrong token gets an error reply and
 * a close, with the reason logged. Not thread-safe: one per connection, called on its event loop.
 */
final class ConnectionHandler extends ChannelInboundHandlerAdapter
{
    private static final Logger LOGGER = LoggerFactory.getLogger(ConnectionHandler.class);
    /**
     * How long a connection refused at its handshake waits for the client to read why and close; the refusal
     * happens when the server is full, so its socket goes back soon.
     */
    static final long REFUSAL_LINGER_MILLIS = 100;

    private final ServerContext server;
    private ReadGate gate;
    private PublishSession publish;
    private SequencedPublishSession sequencedPublish;
    private FetchSession fetch;
    private QueueSession queue;
    private GroupSession groups;
    /** The client the connection's session counts against, once the handshake admitted it. */
    private String admitted;
    /** The last error reply went out; whatever the client still sends is read and dropped until the close. */
    private boolean closing;

    ConnectionHandler(final ServerContext server)
    {
        this.server = server;
    }

    /**
     * The connection's sessions are made at its handshake, not when it is accepted: a connection that never
     * handshakes (a port scan, a connect storm) costs no more than its pipeline.
     */
    private void startSessions(final ChannelHandlerContext ctx)
    {
        final TopicCache topics = new TopicCache(server.engine().streams().topics());
        gate = new ReadGate(ctx.channel(), server.pausedConnections());
        publish = new PublishSession(ctx.channel(), gate, server.engine().streams().logStore().newProducer(),
            server.engine().router(), topics, server.config().maxUnconfirmedPublishes(),
            server.config().writesRefused());
        sequencedPublish = new SequencedPublishSession(ctx.channel(), publish, server.replicated());
        fetch = new FetchSession(ctx.channel(), topics, server.engine().streams().clock(), server.held());
        queue = new QueueSession(ctx.channel(), server.engine(), server.queueExecutor(), server.held());
        groups = new GroupSession(ctx.channel(), server.engine().streams().groups(), server.adminExecutor(),
            server.held());
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx) throws Exception
    {
        server.counters().connectionAccepted();
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) throws Exception
    {
        if (admitted != null)
        {
            server.sessions().release(admitted);
            gate.close();
            fetch.close();
            queue.close();
            groups.close();
        }
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        ByteBuf frame = (ByteBuf)msg;
        try
        {
            if (closing)
            {
                return;
            }
            if (!FrameBytes.isWrappable(frame))
            {
                final ByteBuf copy = Unpooled.copiedBuffer(frame);
                frame.release();
                frame = copy;
            }
            onFrame(ctx, frame);
        }
        finally
        {
            frame.release();
        }
    }

    private void onFrame(final ChannelHandlerContext ctx, final ByteBuf frame)
    {
        if (admitted != null)
        {
            fetch.expireDue();
        }
        if (frame.readableBytes() < FrameDescriptor.HEADER_LENGTH)
        {
            closeWithError(ctx, 0, 0, ErrorCode.MALFORMED_FRAME, "frame of " + frame.readableBytes() +
                " bytes is shorter than the " + FrameDescriptor.HEADER_LENGTH + "-byte header");
            return;
        }
        final int version = FrameDescriptor.version(frame);
        final int flags = FrameDescriptor.flags(frame);
        final int opCode = FrameDescriptor.opCode(frame);
        final long correlationId = FrameDescriptor.correlationId(frame);
        server.counters().request(opCode);
        if (version != FrameDescriptor.VERSION)
        {
            closeWithError(ctx, opCode, correlationId, ErrorCode.UNSUPPORTED_VERSION, "protocol version " + version +
                " is not supported; this server speaks version " + FrameDescriptor.VERSION);
            return;
        }
        if (FrameDescriptor.isResponse(flags))
        {
            reply(ctx, opCode, correlationId, new ProtocolException(ErrorCode.MALFORMED_FRAME,
                "the server sends no requests, so it takes no responses"));
            return;
        }
        frame.skipBytes(FrameDescriptor.HEADER_LENGTH);
        if (admitted == null && opCode != OpCode.HELLO)
        {
            closeWithError(ctx, opCode, correlationId, ErrorCode.NOT_AUTHENTICATED,
                OpCode.name(opCode) + " before the HELLO handshake");
            return;
        }
        try
        {
            dispatch(ctx, opCode, correlationId, frame);
        }
        catch (final RejectedExecutionException ex)
        {
            reply(ctx, opCode, correlationId, new BackPressureException("the server runs " +
                "as many waiting queue calls as it allows; retry later"));
        }
        catch (final IndexOutOfBoundsException ex)
        {
            reply(ctx, opCode, correlationId, new ProtocolException(ErrorCode.MALFORMED_FRAME,
                "malformed " + OpCode.name(opCode) + " body: " + ex.getMessage()));
        }
        catch (final RuntimeException ex)
        {
            if (ErrorCode.of(ex) == ErrorCode.INTERNAL)
            {
                LOGGER.warn("unexpected failure serving " + OpCode.name(opCode) + " for " +
                    ctx.channel().remoteAddress(), ex);
            }
            reply(ctx, opCode, correlationId, ex);
        }
    }

    private void dispatch(final ChannelHandlerContext ctx, final int opCode, final long correlationId,
        final ByteBuf body)
    {
        switch (opCode)
        {
            case OpCode.HELLO:
                handshake(ctx, correlationId, body);
                break;
            case OpCode.PING:
                Fields.expectEnd(body);
                final ByteBuf out = ctx.alloc().ioBuffer(FrameDescriptor.HEADER_LENGTH);
                FrameDescriptor.finish(out, FrameDescriptor.begin(out, OpCode.PING, FrameDescriptor.FLAG_RESPONSE,
                    correlationId));
                ctx.writeAndFlush(out, ctx.voidPromise());
                break;
            case OpCode.PUBLISH:
                publish.publish(correlationId, body);
                break;
            case OpCode.PUBLISH_SEQUENCED:
                sequencedPublish.publish(correlationId, body);
                break;
            case OpCode.FETCH:
                fetch.fetch(correlationId, body);
                break;
            default:
                if (ExchangeOperations.handles(opCode))
                {
                    server.exchanges().handle(ctx.channel(), opCode, correlationId, body);
                }
                else if (GroupSession.handles(opCode))
                {
                    groups.handle(opCode, correlationId, body);
                }
                else if (QueueSession.handles(opCode))
                {
                    queue.handle(opCode, correlationId, body);
                }
                else if (AdminOperations.handles(opCode))
                {
                    server.admin().handle(ctx.channel(), opCode, correlationId, body);
                }
                else
                {
                    reply(ctx, opCode, correlationId, new ProtocolException(ErrorCode.UNKNOWN_OPERATION,
                        "unknown operation " + OpCode.name(opCode)));
                }
                break;
        }
    }

    private void handshake(final ChannelHandlerContext ctx, final long correlationId, final ByteBuf body)
    {
        final String token = Fields.readString(body);
        final String client = Fields.readString(body);
        Fields.expectEnd(body);
        final String expected = server.config().token();
        if (expected != null && !MessageDigest.isEqual(expected.getBytes(StandardCharsets.UTF_8),
            token.getBytes(StandardCharsets.UTF_8)))
        {
            closeWithError(ctx, OpCode.HELLO, correlationId, ErrorCode.AUTHENTICATION_FAILED,
                "the token of client \"" + client + "\" is not the server's");
            return;
        }
        if (admitted == null && !admit(ctx, correlationId))
        {
            return;
        }
        final ByteBuf out = ctx.alloc().ioBuffer(FrameDescriptor.HEADER_LENGTH + HelloDescriptor.RESPONSE_LENGTH);
        HelloDescriptor.encodeResponse(out, correlationId, server.config().heartbeatIntervalMillis(),
            server.config().maxFrameLength(), server.config().maxUnconfirmedPublishes());
        ctx.writeAndFlush(out, ctx.voidPromise());
    }

    /**
     * Counts the connection's session against the server's limits, or tells the client there is no room and closes.
     *
     * @return whether the session was admitted.
     */
    private boolean admit(final ChannelHandlerContext ctx, final long correlationId)
    {
        final String client = ConnectionLimits.clientOf(ctx.channel().remoteAddress());
        final String refusal = server.sessions().admit(client);
        if (refusal != null)
        {
            final ByteBuf out = ctx.alloc().ioBuffer(256);
            ErrorDescriptor.encode(out, OpCode.HELLO, correlationId, ErrorCode.TOO_MANY_CONNECTIONS, 0, 0, 0, "",
                refusal);
            closing = true;
            LastWord.sendAndClose(ctx, out, REFUSAL_LINGER_MILLIS);
            return false;
        }
        admitted = client;
        startSessions(ctx);
        return true;
    }

    private void reply(final ChannelHandlerContext ctx, final int opCode, final long correlationId,
        final Throwable error)
    {
        server.counters().error(opCode);
        final ByteBuf out = ctx.alloc().ioBuffer(256);
        ErrorDescriptor.encode(out, opCode, correlationId, error);
        ctx.writeAndFlush(out, ctx.voidPromise());
    }

    private void closeWithError(final ChannelHandlerContext ctx, final int opCode, final long correlationId,
        final ErrorCode code, final String reason)
    {
        LOGGER.info("closing connection from " + ctx.channel().remoteAddress() + ": " + code + ", " + reason);
        server.counters().error(opCode);
        final ByteBuf out = ctx.alloc().ioBuffer(256);
        ErrorDescriptor.encode(out, opCode, correlationId, code, 0, 0, 0, "", reason);
        closing = true;
        LastWord.sendAndClose(ctx, out);
    }

    @Override
    public void channelWritabilityChanged(final ChannelHandlerContext ctx) throws Exception
    {
        if (!closing && admitted != null)
        {
            gate.answersUnread(!ctx.channel().isWritable());
        }
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void userEventTriggered(final ChannelHandlerContext ctx, final Object event) throws Exception
    {
        if (event instanceof IdleStateEvent)
        {
            LOGGER.info("closing connection from " + ctx.channel().remoteAddress() + ": nothing read for " +
                HelloDescriptor.IDLE_INTERVALS + " heartbeat intervals (no heartbeat, or its answers went unread)");
            ctx.close();
            return;
        }
        super.userEventTriggered(ctx, event);
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        final Throwable error = cause instanceof DecoderException && cause.getCause() != null ?
            cause.getCause() : cause;
        if (closing)
        {
            LOGGER.debug("ignoring an error on a closing connection: " + error);
        }
        else if (error instanceof TooLongFrameException)
        {
            closeWithError(ctx, 0, 0, ErrorCode.FRAME_TOO_LARGE, error.getMessage() + " (limit " +
                server.config().maxFrameLength() + " bytes)");
        }
        else if (error instanceof CorruptedFrameException)
        {
            closeWithError(ctx, 0, 0, ErrorCode.MALFORMED_FRAME, error.getMessage());
        }
        else if (error instanceof SSLException)
        {
            // no error reply can reach a client that does not speak TLS or did not finish the handshake
            LOGGER.info("closing connection from " + ctx.channel().remoteAddress() + ": TLS failed, " + error);
            closing = true;
            ctx.close();
        }
        else if (error instanceof IOException)
        {
            LOGGER.debug("connection from " + ctx.channel().remoteAddress() + " failed: " + error);
            ctx.close();
        }
        else
        {
            LOGGER.warn("closing connection from " + ctx.channel().remoteAddress() + " after an error", error);
            ctx.close();
        }
    }
}
