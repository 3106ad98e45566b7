package io.spool.wire.kafka;

import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;

/** A bare socket speaking Kafka's framing, for requests no stock client would send. */
final class RawKafkaConnection implements AutoCloseable
{
    private final Socket socket;
    private final DataInputStream in;
    private final OutputStream out;
    private int correlation;

    RawKafkaConnection(final KafkaFixture kafka) throws IOException
    {
        this.socket = new Socket(kafka.listener.host(), kafka.listener.port());
        socket.setSoTimeout(30_000);
        this.in = new DataInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** The bytes of a request of {@code key} at {@code version}, size prefix included. */
    static byte[] frame(final ApiKeys key, final short version, final int correlationId, final ApiMessage body)
    {
        final ObjectSerializationCache cache = new ObjectSerializationCache();
        final short headerVersion = key.requestHeaderVersion(version);
        final RequestHeaderData header = new RequestHeaderData().setRequestApiKey(key.id).setRequestApiVersion(version)
            .setCorrelationId(correlationId).setClientId("raw");
        final int size = header.size(cache, headerVersion) + body.size(cache, version);
        final ByteBuffer buffer = ByteBuffer.allocate(Integer.BYTES + size);
        buffer.putInt(size);
        final ByteBufferAccessor accessor = new ByteBufferAccessor(buffer);
        header.write(accessor, cache, headerVersion);
        body.write(accessor, cache, version);
        return buffer.array();
    }

    /** Sends a request and reads its answer. */
    <T extends ApiMessage> T call(final ApiKeys key, final short version, final ApiMessage body) throws IOException
    {
        send(frame(key, version, ++correlation, body));
        return read(key, version, correlation);
    }

    void send(final byte[] bytes) throws IOException
    {
        out.write(bytes);
        out.flush();
    }

    @SuppressWarnings("unchecked")
    <T extends ApiMessage> T read(final ApiKeys key, final short version, final int correlationId) throws IOException
    {
        final byte[] frame = new byte[in.readInt()];
        in.readFully(frame);
        final ByteBufferAccessor accessor = new ByteBufferAccessor(ByteBuffer.wrap(frame));
        final ResponseHeaderData header = new ResponseHeaderData(accessor, key.responseHeaderVersion(version));
        if (header.correlationId() != correlationId)
        {
            throw new IllegalStateException("answer to " + header.correlationId() + ", expected " + correlationId);
        }
        final ApiMessage response = key.messageType.newResponse();
        response.read(accessor, version);
        return (T)response;
    }

    /** True when the server closed the connection (reading meets the end of the stream). */
    boolean closedByServer() throws IOException
    {
        try
        {
            return in.read() < 0;
        }
        catch (final EOFException | java.net.SocketException ex)
        {
            return true;
        }
        catch (final SocketTimeoutException ex)
        {
            return false;
        }
    }

    @Override
    public void close() throws IOException
    {
        socket.close();
    }
}
