package io.spool.perf.cli;

import io.spool.wire.client.ClientConfig;
import io.spool.wire.server.ServerConfig;
import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.nio.file.Path;

/** Which running server a command talks to, and how: its address, token and the certificates to trust. */
final class ServerOptions
{
    static final String DEFAULT_SERVER = ServerConfig.DEFAULT_HOST + ":" + ServerConfig.DEFAULT_PORT;

    @Option(names = "--server", paramLabel = "HOST:PORT",
        description = "The server to talk to (default: " + DEFAULT_SERVER + ").")
    String server;

    @Option(names = "--token", paramLabel = "TOKEN", description = "The server's shared secret, if it has one.")
    String token;

    @Option(names = "--tls-trust", paramLabel = "FILE.pem",
        description = {"Connect over TLS, trusting the PEM certificates in this file: the server's own (self-signed)",
            "or the authority that signed it. The certificate must name the host given to --server."})
    Path tlsTrustedCertificates;

    /** Whether any of these options was given. */
    boolean given()
    {
        return server != null || token != null || tlsTrustedCertificates != null;
    }

    /**
     * @throws ParameterException naming the option when the address is malformed or the certificates unreadable.
     */
    ClientConfig clientConfig(final CommandLine commandLine, final String clientName)
    {
        final ServerAddress address = ServerAddress.parse(commandLine, "--server",
            server == null ? DEFAULT_SERVER : server);
        ReadableFile.require(commandLine, "--tls-trust", tlsTrustedCertificates);
        return ClientConfig.builder().host(address.host()).port(address.port()).token(token)
            .tls(tlsTrustedCertificates).clientName(clientName).build();
    }
}
