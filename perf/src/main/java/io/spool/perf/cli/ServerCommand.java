package io.spool.perf.cli;

import io.spool.wire.server.ServerConfig;
import io.spool.wire.server.SpoolServer;
import io.spool.cluster.ClusterNodeConfig;
import io.spool.wire.sqs.SqsConfig;
import io.spool.wire.sqs.SqsEndpoint;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

@Command(
    name = "server",
    mixinStandardHelpOptions = true,
    description = {
        "Serves a data directory over TCP (Spool's binary protocol, and with --sqs-port the SQS API over HTTP) " +
            "until interrupted; Ctrl-C closes it cleanly.",
        "While it runs, the other commands reach it with --server HOST:PORT (and --tls-trust when it serves " +
            "TLS); the directory is locked meanwhile."})
final class ServerCommand implements Callable<Integer>
{
    @Spec
    CommandSpec spec;

    @Option(names = "--data-dir", defaultValue = "spool-data", paramLabel = "DIR",
        description = "The data directory to serve, created when missing (default: ${DEFAULT-VALUE}).")
    Path dataDirectory;

    @Option(names = "--host", defaultValue = ServerConfig.DEFAULT_HOST, paramLabel = "HOST",
        description = "Address to bind; 0.0.0.0 serves every interface (default: ${DEFAULT-VALUE}).")
    String host;

    @Option(names = "--port", defaultValue = "" + ServerConfig.DEFAULT_PORT, paramLabel = "PORT",
        description = "Port to listen on; 0 picks a free one (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--kafka-port", paramLabel = "PORT",
        description = "Also serve Kafka's protocol on this port (9092 is Kafka's), so Kafka clients and tools " +
            "reach the same data; 0 picks a free port. Off unless given.")
    Integer kafkaPort;

    @Option(names = "--kafka-host", paramLabel = "HOST",
        description = "Address the Kafka listener binds, and tells clients to connect to (default: --host).")
    String kafkaHost;

    @Option(names = "--token", paramLabel = "TOKEN",
        description = "A shared secret clients must present; without it any client may connect.")
    String token;

    @Option(names = "--token-file", paramLabel = "FILE",
        description = "Read the shared secret from this file (its first line), keeping it off the command line.")
    Path tokenFile;

    @Option(names = "--metrics-port", paramLabel = "PORT",
        description = "Serve GET /metrics (Prometheus text) and GET /health over HTTP on this port; 0 picks one.")
    Integer metricsPort;

    @Option(names = "--metrics-host", defaultValue = ServerConfig.DEFAULT_HOST, paramLabel = "HOST",
        description = "Address of the metrics endpoint (default: ${DEFAULT-VALUE}).")
    String metricsHost;

    @Option(names = "--sqs-port", paramLabel = "PORT",
        description = "Also serve the SQS API (AWS JSON and query protocols) on this port, 0 for a free one; SQS " +
            "clients pass the token as their access key id. Off unless given (ElasticMQ's port is " +
            SqsConfig.DEFAULT_PORT + ").")
    Integer sqsPort;

    @Option(names = "--sqs-host", defaultValue = SqsConfig.DEFAULT_HOST, paramLabel = "HOST",
        description = "Address the SQS API binds (default: ${DEFAULT-VALUE}).")
    String sqsHost;

    @Option(names = "--tls-cert", paramLabel = "FILE.pem",
        description = "Serve TLS only, presenting this PEM certificate chain; needs --tls-key.")
    Path tlsCertificateChain;

    @Option(names = "--node-id", paramLabel = "N",
        description = "Run as node N of the cluster --cluster lists (docs/guide/cluster.md); needs --cluster.")
    Integer nodeId;

    @Option(names = "--cluster", paramLabel = "ID@HOST:PORT,...",
        description = "Every node of a static cluster with its consensus address, the same list on every node, " +
            "e.g. 1@10.0.0.1:7501,2@10.0.0.2:7501,3@10.0.0.3:7501; needs --node-id. --port stays the port " +
            "clients read from.")
    String cluster;

    @Option(names = "--snapshot-every", paramLabel = "ENTRIES",
        description = "A cluster node's Raft groups snapshot their state and trim their logs every ENTRIES applied " +
            "entries (default: " + ClusterNodeConfig.DEFAULT_SNAPSHOT_EVERY_ENTRIES + "); needs --cluster.")
    Integer snapshotEveryEntries;

    @Option(names = "--tls-key", paramLabel = "FILE.pem",
        description = "The private key of --tls-cert: PEM, unencrypted PKCS#8 (BEGIN PRIVATE KEY).")
    Path tlsPrivateKey;

    /**
     * Checks every option, and that the ports are free, before the data directory is opened: a mistake leaves the
     * directory untouched. Then starts the metrics endpoint (so that a long recovery shows as "not ready"), opens the
     * directory and serves it.
     */
    @Override
    public Integer call()
    {
        checkTlsFiles();
        final String secret = TokenFile.secret(spec.commandLine(), token, tokenFile);
        final ServerConfig.Builder settings = ServerConfig.builder().host(host).port(port).token(secret)
            .tls(tlsCertificateChain, tlsPrivateKey).kafka(kafkaHost, kafkaPort == null ? -1 : kafkaPort);
        final ServerConfig config = settings.build();
        FreePort.require("--port", host, port);
        if (kafkaPort != null && kafkaPort != 0)
        {
            FreePort.require("--kafka-port", kafkaHost == null ? host : kafkaHost, kafkaPort);
        }
        if (metricsPort != null)
        {
            FreePort.require("--metrics-port", metricsHost, metricsPort);
        }
        if (snapshotEveryEntries != null && nodeId == null && cluster == null)
        {
            throw new ParameterException(spec.commandLine(), "--snapshot-every is a cluster node's setting: add " +
                "--node-id and --cluster, or drop it");
        }
        final PrintWriter out = spec.commandLine().getOut();
        if (nodeId != null || cluster != null)
        {
            if (sqsPort != null)
            {
                throw new ParameterException(spec.commandLine(), "a cluster node serves no SQS API so far: drop " +
                    "--sqs-port, or --node-id and --cluster");
            }
            return ClusterServing.serve(spec.commandLine(), nodeId, cluster, snapshotEveryEntries, dataDirectory,
                settings, () -> startMetrics(out));
        }
        final MetricsEndpoint metrics = startMetrics(out);
        final SpoolServer server;
        try
        {
            server = SpoolServer.open(dataDirectory, config);
        }
        catch (final Exception ex)
        {
            if (metrics != null)
            {
                metrics.close();
            }
            // Netty's bind error (a checked exception thrown unchecked) names neither the address nor the port
            throw new IllegalStateException("cannot serve " + dataDirectory + " on " + host + ":" + port + ": " +
                ex.getMessage(), ex);
        }
        if (metrics != null)
        {
            metrics.ready(server::metrics);
        }
        final SqsEndpoint sqs = startSqs(server, secret, metrics);
        final CloseOnce closeOnce = new CloseOnce(metrics, sqs == null ? List.of(server::close) :
            List.of(sqs::close, server::close));
        out.printf("spool server: listening on %s:%d (%s transport%s), data directory %s%s%n", server.host(),
            server.port(), server.transport().toString().toLowerCase(Locale.ROOT),
            tlsCertificateChain == null ? "" : ", TLS", dataDirectory, secret == null ? "" : ", token required");
        if (server.kafkaListener() != null)
        {
            out.printf("spool server: Kafka listener on %s (bootstrap.servers=%s%s)%n",
                server.kafkaListener().bootstrapServers(), server.kafkaListener().bootstrapServers(),
                secret == null ? "" : ", SASL/PLAIN with the token as password");
        }
        if (sqs != null)
        {
            out.printf("spool server: SQS on %s (queue URLs %s/%s/NAME)%n", sqs.url(), sqs.url(),
                SqsConfig.DEFAULT_ACCOUNT);
        }
        out.flush();
        closeOnce.closeWhenDone(server);
        out.println("spool server: closed");
        out.flush();
        return 0;
    }

    /**
     * Checks the TLS options before the data directory is opened, so that a missing partner or a mistyped path is
     * named by its option; a file that cannot be parsed is named by the server's own error.
     *
     * @throws ParameterException when only one of the pair is given, or a file cannot be read.
     */
    private void checkTlsFiles()
    {
        if ((tlsCertificateChain == null) != (tlsPrivateKey == null))
        {
            throw new ParameterException(spec.commandLine(), (tlsCertificateChain == null ?
                "--tls-key needs --tls-cert" : "--tls-cert needs --tls-key") +
                ": TLS takes both the certificate chain and its private key, or neither for plain TCP");
        }
        ReadableFile.require(spec.commandLine(), "--tls-cert", tlsCertificateChain);
        ReadableFile.require(spec.commandLine(), "--tls-key", tlsPrivateKey);
    }

    /** Starts the SQS endpoint over the server's engine when --sqs-port asks for it; its files go in DIR/sqs. */
    private SqsEndpoint startSqs(final SpoolServer server, final String secret, final MetricsEndpoint metrics)
    {
        if (sqsPort == null)
        {
            return null;
        }
        try
        {
            return SqsEndpoint.start(server.engine(), SqsConfig.builder(dataDirectory.resolve("sqs")).host(sqsHost)
                .port(sqsPort).token(secret).build());
        }
        catch (final RuntimeException ex)
        {
            new CloseOnce(metrics, List.of(server::close)).run();
            throw new IllegalStateException("cannot serve SQS on " + sqsHost + ":" + sqsPort + ": " + ex.getMessage(),
                ex);
        }
    }

    private MetricsEndpoint startMetrics(final PrintWriter out)
    {
        if (metricsPort == null)
        {
            return null;
        }
        try
        {
            final MetricsEndpoint metrics = MetricsEndpoint.start(metricsHost, metricsPort);
            out.printf("spool server: metrics on http://%s:%d/metrics, health on /health%n", metricsHost,
                metrics.port());
            out.flush();
            return metrics;
        }
        catch (final java.io.IOException ex)
        {
            throw new IllegalStateException("--metrics-port: cannot serve metrics on " + metricsHost + ":" +
                metricsPort + ": " + ex.getMessage(), ex);
        }
    }
}
