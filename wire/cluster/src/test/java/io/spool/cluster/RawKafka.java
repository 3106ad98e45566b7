package io.spool.cluster;

import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.AbstractResponse;
import org.apache.kafka.common.requests.RequestHeader;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;

/**
 * One Kafka request sent to one chosen node over a bare socket and its answer read back, with kafka-clients' own
 * request classes: for what no stock client does, since a stock client goes to the node it is meant to.
 */
final class RawKafka
{
    private RawKafka()
    {
    }

    /** Sends {@code request} to {@code address} (host:port) and returns the node's answer. */
    static AbstractResponse exchange(final String address, final AbstractRequest request) throws IOException
    {
        final RequestHeader header = new RequestHeader(request.apiKey(), request.version(), "raw-kafka", 1);
        final ByteBuffer bytes = request.serializeWithHeader(header);
        final int colon = address.lastIndexOf(':');
        try (Socket socket = new Socket(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1))))
        {
            socket.setSoTimeout(30_000);
            final DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(bytes.remaining());
            out.write(bytes.array(), bytes.arrayOffset() + bytes.position(), bytes.remaining());
            out.flush();
            final DataInputStream in = new DataInputStream(socket.getInputStream());
            final byte[] frame = new byte[in.readInt()];
            in.readFully(frame);
            return AbstractResponse.parseResponse(ByteBuffer.wrap(frame), header);
        }
    }
}
