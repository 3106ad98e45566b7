package io.spool.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Forwards TCP connections from a loopback port to another, and can cut them: {@link #cut()} closes every
 * forwarded connection and refuses new ones until {@link #heal()}, as a network partition in front of a node would.
 * <p>
 * {@link #cutFrom} cuts only what one peer opens: the proxy learns which node a connection comes from by the first
 * Raft request on it, whose requestor id ({@code n<id>}, see {@link ClusterGroups#peerId}) Ratis' protobuf carries
 * as plain bytes ({@link #REQUESTOR_PATTERN}); clients, whose ids are 16 random bytes, are never taken for a node.
 * It works for node ids 1 to 9. Thread-safe.
 */
final class TcpProxy implements AutoCloseable
{
    private final ServerSocket listener;
    private final int targetPort;
    /**
     * The start of a Raft server request: requestor id (field 1) and reply id (field 2), two bytes each, {@code n}
     * and a digit; {@code 0} matches any digit, and the first one is the requestor's.
     */
    private static final byte[] REQUESTOR_PATTERN = {0x0a, 0x02, 'n', 0, 0x12, 0x02, 'n', 0};
    private static final int REQUESTOR_DIGIT = 3;

    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    /** The node each connection identified itself as, by its proxy-side socket. */
    private final Map<Socket, Integer> openedBy = new ConcurrentHashMap<>();
    private final Set<Integer> cutNodes = ConcurrentHashMap.newKeySet();
    private volatile boolean cut;

    TcpProxy(final int listenPort, final int targetPort)
    {
        this.targetPort = targetPort;
        try
        {
            listener = new ServerSocket();
            listener.setReuseAddress(true);
            listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), listenPort));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        final Thread acceptor = new Thread(this::accept, "proxy-" + listenPort);
        acceptor.setDaemon(true);
        acceptor.start();
    }

    private void accept()
    {
        while (!listener.isClosed())
        {
            try
            {
                final Socket client = listener.accept();
                if (cut)
                {
                    client.close();
                    continue;
                }
                final Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                open.add(client);
                open.add(server);
                pump(client, server, true);
                pump(server, client, false);
            }
            catch (final IOException closedOrRefused)
            {
                // the proxy closed, or the node behind it is down: the peer sees a closed connection
            }
        }
    }

    /** @param identify whether {@code from} is the side that opened the connection, which names its node. */
    private void pump(final Socket from, final Socket to, final boolean identify)
    {
        final Thread thread = new Thread(() ->
        {
            // the pattern's length before the buffer, so that a request split between two reads is still seen
            final int carry = REQUESTOR_PATTERN.length - 1;
            final byte[] buffer = new byte[carry + (64 << 10)];
            boolean identified = !identify;
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream())
            {
                int read;
                while ((read = in.read(buffer, carry, buffer.length - carry)) >= 0)
                {
                    if (!identified)
                    {
                        final int node = requestor(buffer, carry + read);
                        if (node > 0)
                        {
                            identified = true;
                            openedBy.put(from, node);
                            if (cutNodes.contains(node))
                            {
                                break;
                            }
                        }
                        System.arraycopy(buffer, carry + read - carry, buffer, 0, carry);
                    }
                    out.write(buffer, carry, read);
                }
            }
            catch (final IOException closed)
            {
                // either side closed, or the proxy cut them
            }
            finally
            {
                closeQuietly(from);
                closeQuietly(to);
                open.remove(from);
                open.remove(to);
                openedBy.remove(from);
            }
        }, "proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    /** Closes every forwarded connection and refuses new ones. */
    void cut()
    {
        cut = true;
        open.forEach(TcpProxy::closeQuietly);
    }

    /** Closes the connections {@code nodeId} opened through this proxy, and each new one once it names that node. */
    void cutFrom(final int nodeId)
    {
        cutNodes.add(nodeId);
        openedBy.forEach((socket, node) ->
        {
            if (node == nodeId)
            {
                closeQuietly(socket);
            }
        });
    }

    /** Undoes every cut: new connections go through again. */
    void heal()
    {
        cutNodes.clear();
        cut = false;
    }

    /** The node id a Raft request in {@code bytes[0, end)} names as its requestor, or 0 when none is there. */
    private static int requestor(final byte[] bytes, final int end)
    {
        outer:
        for (int at = 0; at + REQUESTOR_PATTERN.length <= end; at++)
        {
            for (int i = 0; i < REQUESTOR_PATTERN.length; i++)
            {
                final byte expected = REQUESTOR_PATTERN[i];
                final byte actual = bytes[at + i];
                if (expected == 0 ? actual < '1' || actual > '9' : actual != expected)
                {
                    continue outer;
                }
            }
            return bytes[at + REQUESTOR_DIGIT] - '0';
        }
        return 0;
    }

    private static void closeQuietly(final Socket socket)
    {
        try
        {
            socket.close();
        }
        catch (final IOException ignored)
        {
            // closed either way
        }
    }

    @Override
    public void close()
    {
        cut();
        try
        {
            listener.close();
        }
        catch (final IOException ignored)
        {
            // closed either way
        }
    }
}
