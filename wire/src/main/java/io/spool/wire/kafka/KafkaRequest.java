package io.spool.wire.kafka;

import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.requests.AbstractRequest;

/**
 * One parsed request on one connection, waiting for its answer. Answers leave in the order their requests came,
 * whatever order they are given in ({@link KafkaConnection}). {@link #respond} may be called from any thread,
 * once. Thread-safe for that call.
 */
final class KafkaRequest
{
    private final KafkaConnection connection;
    private final RequestHeaderData header;
    private final ApiKeys key;
    private final AbstractRequest request;
    private volatile ApiMessage response;
    private volatile boolean answered;
    private volatile boolean silent;

    KafkaRequest(final KafkaConnection connection, final RequestHeaderData header, final ApiKeys key,
        final AbstractRequest request)
    {
        this.connection = connection;
        this.header = header;
        this.key = key;
        this.request = request;
    }

    ApiKeys key()
    {
        return key;
    }

    short version()
    {
        return header.requestApiVersion();
    }

    int correlationId()
    {
        return header.correlationId();
    }

    String clientId()
    {
        return header.clientId() == null ? "" : header.clientId();
    }

    KafkaConnection connection()
    {
        return connection;
    }

    @SuppressWarnings("unchecked")
    <T extends ApiMessage> T body()
    {
        return (T)request.data();
    }

    /** Sends {@code body} as this request's response. */
    void respond(final ApiMessage body)
    {
        this.response = body;
        this.answered = true;
        connection.answered();
    }

    /** Answers with the error response Kafka's own classes build for {@code error}, code and message. */
    void respondError(final Throwable error)
    {
        respond(request.getErrorResponse(0, error).data());
    }

    /** Completes the request without a response on the wire (a produce request with {@code acks=0}). */
    void completeSilently()
    {
        this.silent = true;
        this.answered = true;
        connection.answered();
    }

    boolean isAnswered()
    {
        return answered;
    }

    boolean isSilent()
    {
        return silent;
    }

    ApiMessage response()
    {
        return response;
    }
}
