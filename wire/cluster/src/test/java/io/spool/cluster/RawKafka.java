package io.spool.cluster;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.ByteBuffer;

/** One Kafka request, serialized with its header, sent to one chosen node over a bare socket, and its answer. */
final class RawKafka
{
    private RawKafka()
    {
    }

    /** @return the response frame, header and body, for {@code AbstractResponse.parseResponse}. */
    static ByteBuffer exchange(final String address, final ByteBuffer request) throws IOException
    {
        final int colon = address.lastIndexOf(':');
        try (Socket socket = new Socket(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1))))
        {
            socket.setSoTimeout(30_000);
            final DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(request.remaining());
            out.write(request.array(), request.arrayOffset() + request.position(), request.remaining());
            out.flush();
            final DataInputStream in = new DataInputStream(socket.getInputStream());
            final byte[] frame = new byte[in.readInt()];
            in.readFully(frame);
            return ByteBuffer.wrap(frame);
        }
    }
}
