package io.spool.perf.cli;

import io.spool.wire.client.ClientConfig;
import io.spool.wire.client.SpoolClient;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code spool ping HOST:PORT}: connects to a server and times a request's round trip; exit 0 when it answers. */
@Command(
    name = "ping",
    mixinStandardHelpOptions = true,
    description = {"Connects to a server, sends a request and prints how long the connection and the answer took.",
        "Exits with 0 when the server answered, 1 when it could not be reached or refused the connection."})
final class PingCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "HOST:PORT", defaultValue = ServerOptions.DEFAULT_SERVER,
        description = "The server (default: ${DEFAULT-VALUE}).")
    String server;

    @Option(names = "--token", paramLabel = "TOKEN", description = "The server's shared secret, if it has one.")
    String token;

    @Option(names = "--tls-trust", paramLabel = "FILE.pem",
        description = "Connect over TLS, trusting the PEM certificates in this file.")
    Path tlsTrustedCertificates;

    @Option(names = "--count", defaultValue = "1", paramLabel = "N",
        description = "Requests to time, one after the other (default: ${DEFAULT-VALUE}).")
    int count;

    @Override
    public Integer call()
    {
        final ServerAddress address = ServerAddress.parse(spec.commandLine(), "HOST:PORT", server);
        ReadableFile.require(spec.commandLine(), "--tls-trust", tlsTrustedCertificates);
        final PrintWriter out = spec.commandLine().getOut();
        final long connectStart = System.nanoTime();
        try (SpoolClient client = SpoolClient.connect(ClientConfig.builder().host(address.host())
            .port(address.port()).token(token).tls(tlsTrustedCertificates).clientName("spool-ping").build()))
        {
            final long connected = System.nanoTime();
            out.printf(Locale.ROOT, "spool ping: connected to %s in %.3f ms%n", address,
                (connected - connectStart) / 1e6);
            for (int i = 1; i <= Math.max(1, count); i++)
            {
                final long start = System.nanoTime();
                final int topics = client.admin().listTopics().size();
                out.printf(Locale.ROOT, "spool ping: %s answered in %.3f ms (%d topic(s))%n", address,
                    (System.nanoTime() - start) / 1e6, topics);
            }
            out.flush();
        }
        return 0;
    }
}
