package io.spool.perf.cli;

import io.spool.wire.client.ClientConfig;
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

    @Option(names = "--tls-trust", paramLabel = "FILE.pem",
        description = {"Connect over TLS, trusting the PEM certificates in this file: the server's own (self-signed)",
            "or the authority that signed it. The certificate must name the host given to --server."})
    Path tlsTrustedCertificates;

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
            if (server != null || token != null || tlsTrustedCertificates != null)
            {
                throw new ParameterException(spec.commandLine(),
                    "--data-dir opens the directory itself: give it without --server, --token and --tls-trust");
            }
            return new EmbeddedEndpoint(dataDirectory);
        }
        final ServerAddress address = ServerAddress.parse(spec.commandLine(), "--server",
            server == null ? DEFAULT_SERVER : server);
        ReadableFile.require(spec.commandLine(), "--tls-trust", tlsTrustedCertificates);
        return new RemoteEndpoint(ClientConfig.builder().host(address.host()).port(address.port()).token(token)
            .tls(tlsTrustedCertificates).clientName("spool-cli").build());
    }
}
