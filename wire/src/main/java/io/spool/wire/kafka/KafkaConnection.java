package io.spool.wire.kafka;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.TooLongFrameException;
import io.netty.util.ReferenceCountUtil;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.requests.AbstractRequest;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;


/**
 * One client connection: parses each length-prefixed request with Kafka's own classes, hands it to the broker,
 * and writes the answers in the order of the requests, as Kafka's clients require. A request that cannot be
 * understood (unknown API, unsupported version, bytes that do not parse) closes the connection with a logged
 * reason, as a Kafka broker does, except ApiVersions at an unknown version, which is answered at version 0 with
 * the versions the listener speaks (KIP-511). Until a token-protected listener has seen SASL/PLAIN succeed, only
 * ApiVersions, SaslHandshake and SaslAuthenticate are served. Runs on the channel's event loop.
 */
final class KafkaConnection extends ChannelInboundHandlerAdapter
{
    private static final Logger LOGGER = LoggerFactory.getLogger(KafkaConnection.class);
    private static final int REQUEST_HEADER_PREFIX = 8;
    /** Requests read and not yet answered before the connection stops reading, so a client cannot pile them up. */
    private static final int MAX_PENDING_REQUESTS = 128;

    private final KafkaBroker broker;
    private final ArrayDeque<KafkaRequest> pending = new ArrayDeque<>();
    private final ConnectionState state;
    private Channel channel;
    private boolean drainScheduled;
    private String closeReason;

    KafkaConnection(final KafkaBroker broker)
    {
        this.broker = broker;
        this.state = new ConnectionState(broker.config().token() == null);
    }

    ConnectionState state()
    {
        return state;
    }

    Channel channel()
    {
        return channel;
    }

    /** The client's address as Kafka's group descriptions show it. */
    String remoteHost()
    {
        return channel.remoteAddress() instanceof java.net.InetSocketAddress address ?
            "/" + address.getAddress().getHostAddress() : String.valueOf(channel.remoteAddress());
    }

    @Override
    public void channelActive(final ChannelHandlerContext ctx) throws Exception
    {
        channel = ctx.channel();
        super.channelActive(ctx);
    }

    @Override
    public void channelInactive(final ChannelHandlerContext ctx) throws Exception
    {
        broker.connectionClosed(this);
        super.channelInactive(ctx);
    }

    @Override
    public void channelRead(final ChannelHandlerContext ctx, final Object msg)
    {
        final ByteBuf frame = (ByteBuf)msg;
        try
        {
            final KafkaRequest request = parse(frame);
            if (request == null)
            {
                return;
            }
            pending.addLast(request);
            if (pending.size() >= MAX_PENDING_REQUESTS)
            {
                channel.config().setAutoRead(false);
            }
            broker.handle(request);
        }
        finally
        {
            ReferenceCountUtil.release(frame);
        }
    }

    private KafkaRequest parse(final ByteBuf frame)
    {
        if (frame.readableBytes() < REQUEST_HEADER_PREFIX)
        {
            return refuse("a request of " + frame.readableBytes() + " bytes is shorter than a request header");
        }
        final ByteBuffer buffer = frame.nioBuffer();
        final short apiKey = buffer.getShort(0);
        final short version = buffer.getShort(2);
        final int correlationId = buffer.getInt(4);
        if (!ApiKeys.hasId(apiKey) || !broker.apis().isImplemented(ApiKeys.forId(apiKey)))
        {
            return refuse("API key " + apiKey + " is unknown or not implemented by Spool's Kafka listener");
        }
        final ApiKeys key = ApiKeys.forId(apiKey);
        if (!broker.apis().supports(key, version))
        {
            if (key == ApiKeys.API_VERSIONS)
            {
                writeUnsupportedApiVersions(correlationId);
                return null;
            }
            return refuse(key + " version " + version + " is not supported; the listener speaks " +
                broker.apis().range(key));
        }
        if (!state.isAuthenticated() && key != ApiKeys.API_VERSIONS && key != ApiKeys.SASL_HANDSHAKE &&
            key != ApiKeys.SASL_AUTHENTICATE)
        {
            return refuse(key + " before SASL authentication; this listener needs SASL/PLAIN with the token");
        }
        try
        {
            final ByteBufferAccessor accessor = new ByteBufferAccessor(buffer);
            final RequestHeaderData header = new RequestHeaderData(accessor, key.requestHeaderVersion(version));
            final AbstractRequest request = AbstractRequest.parseRequest(key, version, accessor).request;
            return new KafkaRequest(this, header, key, request);
        }
        catch (final RuntimeException ex)
        {
            return refuse("a malformed " + key + " v" + version + " request (" + ex.getMessage() + ")");
        }
    }

    private KafkaRequest refuse(final String reason)
    {
        LOGGER.warn("closing Kafka connection from " + channel.remoteAddress() + ": " + reason);
        channel.close();
        return null;
    }

    private void writeUnsupportedApiVersions(final int correlationId)
    {
        // Answered at version 0 with header version 0, which every client can read, so it retries lower.
        channel.writeAndFlush(encode(correlationId, (short)0, broker.apis().describe(Errors.UNSUPPORTED_VERSION),
            (short)0));
    }

    /** Called by a request that has its answer; writes every answer that is next in line, on the event loop. */
    void answered()
    {
        if (channel.eventLoop().inEventLoop())
        {
            drain();
        }
        else
        {
            synchronized (this)
            {
                if (drainScheduled)
                {
                    return;
                }
                drainScheduled = true;
            }
            channel.eventLoop().execute(() ->
            {
                synchronized (this)
                {
                    drainScheduled = false;
                }
                drain();
            });
        }
    }

    private void drain()
    {
        boolean wrote = false;
        while (!pending.isEmpty() && pending.peekFirst().isAnswered())
        {
            final KafkaRequest request = pending.pollFirst();
            if (!request.isSilent() && channel.isActive())
            {
                final ByteBuf response;
                try
                {
                    response = encode(request.correlationId(), request.key().responseHeaderVersion(request.version()),
                        request.response(), request.version());
                }
                catch (final RuntimeException ex)
                {
                    // An answer that cannot be written at the request's version is the listener's bug; the client
                    // would wait for it forever, so it is told by a closed connection instead.
                    LOGGER.error("cannot write the answer to " + request.key() +
                        " v" + request.version() + "; closing the connection from " + channel.remoteAddress(), ex);
                    channel.close();
                    return;
                }
                channel.write(response);
                wrote = true;
            }
        }
        if (wrote)
        {
            channel.flush();
        }
        if (closeReason != null && pending.isEmpty())
        {
            LOGGER.warn("closing Kafka connection from " + channel.remoteAddress() + ": " + closeReason);
            channel.writeAndFlush(io.netty.buffer.Unpooled.EMPTY_BUFFER)
                .addListener(io.netty.channel.ChannelFutureListener.CLOSE);
            closeReason = null;
            return;
        }
        if (pending.size() < MAX_PENDING_REQUESTS / 2 && !channel.config().isAutoRead() && channel.isActive())
        {
            channel.config().setAutoRead(true);
        }
    }

    private ByteBuf encode(final int correlationId, final short headerVersion, final ApiMessage body,
        final short version)
    {
        final ObjectSerializationCache cache = new ObjectSerializationCache();
        final ResponseHeaderData header = new ResponseHeaderData().setCorrelationId(correlationId);
        final int size = header.size(cache, headerVersion) + body.size(cache, version);
        final ByteBuf out = channel.alloc().ioBuffer(Integer.BYTES + size);
        try
        {
            out.writeInt(size);
            final ByteBufferAccessor accessor = new ByteBufferAccessor(out.nioBuffer(Integer.BYTES, size));
            header.write(accessor, cache, headerVersion);
            body.write(accessor, cache, version);
            out.writerIndex(Integer.BYTES + size);
            return out;
        }
        catch (final RuntimeException ex)
        {
            out.release();
            throw ex;
        }
    }

    /** Closes the connection for a reason worth a line in the log (a failed authentication, a broken protocol). */
    void close(final String reason)
    {
        LOGGER.warn("closing Kafka connection from " + channel.remoteAddress() + ": " + reason);
        channel.close();
    }

    /** Closes the connection once every answer given so far is written. */
    void closeAfterAnswers(final String reason)
    {
        closeReason = reason;
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        if (cause instanceof TooLongFrameException)
        {
            close("a request larger than the listener's maximum of " + broker.config().maxRequestBytes() +
                " bytes (" + cause.getMessage() + ")");
            return;
        }
        LOGGER.debug("Kafka connection from " + ctx.channel().remoteAddress() + " failed", cause);
        ctx.close();
    }
}
