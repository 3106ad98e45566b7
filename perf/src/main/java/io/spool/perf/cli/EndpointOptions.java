package io.spool.perf.cli;

import picocli.CommandLine.Mixin;
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
    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    @Mixin
    ServerOptions server;

    @Option(names = "--data-dir", paramLabel = "DIR",
        description = "Open this data directory instead of talking to a server; refused while a server holds it.")
    Path dataDirectory;

    /**
     * @throws ParameterException when a data directory is given with a server's options, the address is malformed,
     *                            or the trusted certificates cannot be read.
     */
    Endpoint open()
    {
        if (dataDirectory != null)
        {
            if (server.given())
            {
                throw new ParameterException(spec.commandLine(),
                    "--data-dir opens the directory itself: give it without --server, --token and --tls-trust");
            }
            return new EmbeddedEndpoint(dataDirectory);
        }
        return new RemoteEndpoint(server.clientConfig(spec.commandLine(), "spool-cli"));
    }
}
