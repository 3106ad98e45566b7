package io.spool.perf.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * Checks that a port can be bound before anything else starts, so that a port in use is reported before the data
 * directory is opened. Another process can still take the port in between; the server's own bind then fails as
 * before. Stateless.
 */
final class FreePort
{
    private FreePort()
    {
    }

    /** @throws IllegalStateException naming the option and the address when {@code port} cannot be bound now. */
    static void require(final String option, final String host, final int port)
    {
        if (port == 0)
        {
            return;
        }
        try (ServerSocket probe = new ServerSocket())
        {
            probe.setReuseAddress(true);
            probe.bind(new InetSocketAddress(host, port));
        }
        catch (final IOException ex)
        {
            throw new IllegalStateException(option + " " + port + ": cannot listen on " + host + ":" + port + " (" +
                ex.getMessage() + "); is another server using it?", ex);
        }
    }
}
