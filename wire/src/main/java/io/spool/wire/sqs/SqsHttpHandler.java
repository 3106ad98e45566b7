package io.spool.wire.sqs;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.UUID;

/**
 * One HTTP connection of the SQS endpoint: reads each request in either protocol (AWS JSON 1.0 when it carries
 * {@code X-Amz-Target: AmazonSQS.ACTION}, the query protocol's form otherwise), checks its token, runs its action and
 * writes the answer, or the SQS error, in the request's protocol. One request at a time per connection: reading
 * pauses until the answer is written, so that answers keep the order of pipelined requests. A bad request gets its
 * error and the connection goes on. Not thread-safe: one per connection, on its event loop.
 */
final class SqsHttpHandler extends SimpleChannelInboundHandler<FullHttpRequest>
{
    static final String JSON_CONTENT_TYPE = "application/x-amz-json-1.0";
    private static final String TARGET_PREFIX = "AmazonSQS.";
    private static final String XML_NAMESPACE = "http://queue.amazonaws.com/doc/2012-11-05/";

    private final SqsActions actions;
    private final String token;
    private final String defaultHost;

    SqsHttpHandler(final SqsActions actions, final String token, final String defaultHost)
    {
        this.actions = actions;
        this.token = token;
        this.defaultHost = defaultHost;
    }

    @Override
    protected void channelRead0(final ChannelHandlerContext ctx, final FullHttpRequest request)
    {
        final boolean keepAlive = HttpUtil.isKeepAlive(request);
        final boolean json = request.headers().contains("X-Amz-Target");
        final String requestId = UUID.randomUUID().toString();
        if (request.decoderResult().isFailure())
        {
            respond(ctx, false, error(SqsError.MALFORMED_REQUEST.with("the HTTP request cannot be read: " +
                request.decoderResult().cause()), json, requestId));
            return;
        }
        try
        {
            final QueryStringDecoder uri = new QueryStringDecoder(request.uri());
            final Map<String, Object> parameters = json ? jsonParameters(request) : formParameters(request, uri);
            final String action;
            if (json)
            {
                action = request.headers().get("X-Amz-Target").substring(TARGET_PREFIX.length());
            }
            else
            {
                final Object named = parameters.remove("Action");
                if (!(named instanceof String) || ((String)named).isEmpty())
                {
                    throw SqsError.MISSING_ACTION.with("Action is missing in the request parameters");
                }
                action = (String)named;
                parameters.remove("Version");
            }
            authorize(request, parameters);
            final String host = request.headers().get(HttpHeaderNames.HOST, defaultHost);
            final SqsActions.Origin origin = new SqsActions.Origin(host, QueueNames.fromUrl(uri.path()),
                ctx.channel().eventLoop());
            ctx.channel().config().setAutoRead(false);
            actions.run(action, new Params(parameters), origin).whenCompleteAsync((answer, failure) ->
            {
                ctx.channel().config().setAutoRead(true);
                respond(ctx, keepAlive, failure == null ? success(action, answer, json, requestId) :
                    error(SqsFailures.of(failure), json, requestId));
            }, ctx.channel().eventLoop());
        }
        catch (final RuntimeException refused)
        {
            ctx.channel().config().setAutoRead(true);
            respond(ctx, keepAlive, error(SqsFailures.of(refused), json, requestId));
        }
    }

    private static Map<String, Object> jsonParameters(final FullHttpRequest request)
    {
        final String target = request.headers().get("X-Amz-Target");
        if (!target.startsWith(TARGET_PREFIX) || target.length() == TARGET_PREFIX.length())
        {
            throw SqsError.INVALID_ACTION.with("X-Amz-Target must be AmazonSQS.ACTION, was '" + target + "'");
        }
        final String body = request.content().toString(StandardCharsets.UTF_8);
        if (body.isBlank())
        {
            return new LinkedHashMap<>();
        }
        final Object parsed = Json.parse(body);
        if (!(parsed instanceof Map))
        {
            throw SqsError.MALFORMED_REQUEST.with("the request body must be a JSON object");
        }
        @SuppressWarnings("unchecked")
        final Map<String, Object> parameters = (Map<String, Object>)parsed;
        return parameters;
    }

    private static Map<String, Object> formParameters(final FullHttpRequest request, final QueryStringDecoder uri)
    {
        final String query = uri.rawQuery();
        final String body = request.method() == HttpMethod.POST ? request.content().toString(StandardCharsets.UTF_8) :
            "";
        final String form = query.isEmpty() ? body : body.isEmpty() ? query : query + "&" + body;
        return QueryForm.read(form);
    }

    /**
     * With a token configured, the request must carry it as its AWS access key id (in the Authorization header's
     * Credential, or a presigned URL's X-Amz-Credential) or as {@code Authorization: Bearer TOKEN}. Signatures are
     * not verified.
     */
    private void authorize(final FullHttpRequest request, final Map<String, Object> parameters)
    {
        if (token == null)
        {
            return;
        }
        final String presented = presentedToken(request.headers().get(HttpHeaderNames.AUTHORIZATION),
            parameters.remove("X-Amz-Credential"));
        if (presented == null)
        {
            throw SqsError.MISSING_AUTHENTICATION_TOKEN.with("Request is missing Authentication Token: this endpoint " +
                "needs its token as the AWS access key id.");
        }
        if (!MessageDigest.isEqual(presented.getBytes(StandardCharsets.UTF_8), token.getBytes(StandardCharsets.UTF_8)))
        {
            throw SqsError.INVALID_CLIENT_TOKEN_ID.with("The security token included in the request is invalid.");
        }
    }

    static String presentedToken(final String authorization, final Object presignedCredential)
    {
        if (authorization != null)
        {
            if (authorization.startsWith("Bearer "))
            {
                return authorization.substring("Bearer ".length()).trim();
            }
            final int credential = authorization.indexOf("Credential=");
            if (credential >= 0)
            {
                final int from = credential + "Credential=".length();
                final int slash = authorization.indexOf('/', from);
                return authorization.substring(from, slash < 0 ? authorization.length() : slash).trim();
            }
        }
        if (presignedCredential instanceof String)
        {
            final String credential = (String)presignedCredential;
            final int slash = credential.indexOf('/');
            return slash < 0 ? credential : credential.substring(0, slash);
        }
        return null;
    }

    private static FullHttpResponse success(final String action, final Answer answer, final boolean json,
        final String requestId)
    {
        final StringBuilder body = new StringBuilder(256);
        if (json)
        {
            answer.writeJson(body);
        }
        else
        {
            body.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?><").append(action).append("Response xmlns=\"")
                .append(XML_NAMESPACE).append("\"><").append(action).append("Result>");
            answer.writeXml(body);
            body.append("</").append(action).append("Result><ResponseMetadata>");
            Answer.element(body, "RequestId", requestId);
            body.append("</ResponseMetadata></").append(action).append("Response>");
        }
        return response(HttpResponseStatus.OK, body, json, requestId);
    }

    static FullHttpResponse error(final SqsException error, final boolean json, final String requestId)
    {
        final SqsError kind = error.error();
        final StringBuilder body = new StringBuilder(256);
        if (json)
        {
            body.append("{\"__type\":");
            Json.writeString(body, kind.jsonType());
            body.append(",\"message\":");
            Json.writeString(body, String.valueOf(error.getMessage()));
            body.append('}');
        }
        else
        {
            body.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?><ErrorResponse xmlns=\"").append(XML_NAMESPACE)
                .append("\"><Error>");
            Answer.element(body, "Type", kind.fault());
            Answer.element(body, "Code", kind.queryCode());
            Answer.element(body, "Message", String.valueOf(error.getMessage()));
            body.append("<Detail/></Error>");
            Answer.element(body, "RequestId", requestId);
            body.append("</ErrorResponse>");
        }
        final FullHttpResponse response = response(HttpResponseStatus.valueOf(kind.status()), body, json, requestId);
        response.headers().set("x-amzn-query-error", kind.queryCode() + ";" + kind.fault());
        return response;
    }

    private static FullHttpResponse response(final HttpResponseStatus status, final CharSequence body,
        final boolean json, final String requestId)
    {
        final ByteBuf content = Unpooled.copiedBuffer(body, StandardCharsets.UTF_8);
        final FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        response.headers().set(HttpHeaderNames.CONTENT_TYPE, json ? JSON_CONTENT_TYPE : "text/xml; charset=UTF-8")
            .setInt(HttpHeaderNames.CONTENT_LENGTH, content.readableBytes()).set("x-amzn-RequestId", requestId);
        return response;
    }

    private static void respond(final ChannelHandlerContext ctx, final boolean keepAlive,
        final FullHttpResponse response)
    {
        if (!ctx.channel().isActive())
        {
            response.release();
            return;
        }
        HttpUtil.setKeepAlive(response, keepAlive);
        if (keepAlive)
        {
            ctx.writeAndFlush(response, ctx.voidPromise());
        }
        else
        {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(final ChannelHandlerContext ctx, final Throwable cause)
    {
        ctx.close();
    }
}
