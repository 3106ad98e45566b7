package io.spool.perf.cli;

import io.spool.wire.server.ServerConfig;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.nio.file.Path;

/**
 * Where an operator command acts: a running server (the default) or a data directory no server holds.
 * Not thread-safe.
 */
final class EndpointOptions
{
    static final String DEFAULT_SERVER = ServerConfig.DEFAULT_HOST + ":" + ServerConfig.DEFAULT_PORT;

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Option(names = "--server", paramLabel = "HOST:PORT",
        description = "The server to talk to (default: " + DEFAULT_SERVER + ").")
    String server;

    @Option(names = "--token", paramLabel = "TOKEN", description = "The server's shared secret, if it has one.")
    String token;

    @Option(names = "--data-dir", paramLabel = "DIR",
        description = "Open this data directory instead of talking to a server; refused while a server holds it.")
    Path dataDirectory;

    /** @throws ParameterException when both a server and a data directory are given, or the address is malformed. */
    Endpoint open()
    {
        if (dataDirectory != null)
        {
            if (server != null || token != null)
            {
                throw new ParameterException(spec.commandLine(),
                    "--data-dir opens the directory itself: give it without --server and --token");
            }
            return new EmbeddedEndpoint(dataDirectory);
        }
        final String address = server == null ? DEFAULT_SERVER : server;
        final int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1)
        {
            throw new ParameterException(spec.commandLine(), "--server must be HOST:PORT, was " + address);
        }
        final int port;
        try
        {
            port = Integer.parseInt(address.substring(colon + 1));
        }
        catch (final NumberFormatException ex)
        {
            throw new ParameterException(spec.commandLine(), "--server must be HOST:PORT, was " + address, ex);
        }
        return new RemoteEndpoint(address.substring(0, colon), port, token);
    }
}
