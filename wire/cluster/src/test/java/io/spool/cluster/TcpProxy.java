package io.spool.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Forwards TCP connections from a loopback port to another, and can cut them: {@link #cut()} closes every
 * forwarded connection and refuses new ones until {@link #heal()}, as a network partition in front of a node would.
 * Thread-safe.
 */
final class TcpProxy implements AutoCloseable
{
    private final ServerSocket listener;
    private final int targetPort;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
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
                pump(client, server);
                pump(server, client);
            }
            catch (final IOException closedOrRefused)
            {
                // the proxy closed, or the node behind it is down: the peer sees a closed connection
            }
        }
    }

    private void pump(final Socket from, final Socket to)
    {
        final Thread thread = new Thread(() ->
        {
            final byte[] buffer = new byte[64 << 10];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream())
            {
                int read;
                while ((read = in.read(buffer)) >= 0)
                {
                    out.write(buffer, 0, read);
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

    void heal()
    {
        cut = false;
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
