package io.spool.cluster;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

/**
 * Free loopback ports for a cluster on one machine (tests, {@code spool bench cluster}): bound at once, so none is
 * handed out twice, then released. Another process can still take a port in between. Stateless.
 */
public final class LoopbackPorts
{
    private LoopbackPorts()
    {
    }

    public static List<Integer> free(final int count)
    {
        final List<ServerSocket> sockets = new ArrayList<>();
        try
        {
            for (int i = 0; i < count; i++)
            {
                sockets.add(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
            }
            return sockets.stream().map(ServerSocket::getLocalPort).toList();
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        finally
        {
            for (final ServerSocket socket : sockets)
            {
                try
                {
                    socket.close();
                }
                catch (final IOException ignored)
                {
                    // the port is free again either way
                }
            }
        }
    }

    /** A member list of {@code size} nodes on free loopback ports. */
    public static ClusterMembers members(final int size)
    {
        final List<Integer> ports = free(size);
        final StringBuilder list = new StringBuilder();
        for (int i = 0; i < size; i++)
        {
            list.append(i == 0 ? "" : ",").append(i + 1).append("@127.0.0.1:").append(ports.get(i));
        }
        return ClusterMembers.parse(list.toString());
    }
}
