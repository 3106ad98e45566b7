package io.spool.perf.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.exporter.httpserver.MetricsHandler;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.spool.api.MetricSample;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * {@code spool server --metrics-port}: an HTTP endpoint serving {@code GET /metrics} in the Prometheus text format
 * (the server's figures and the JVM's, through the Prometheus Java client) and {@code GET /health}: 503 while the
 * data directory is being opened and recovered, then what the server says of itself (a single server is ready at
 * once, a cluster node once it has loaded its groups and knows a metadata leader), 503 again while it closes. It
 * starts before the data directory is opened, so a long recovery is visible as "not ready" rather than as a refused
 * port. Thread-safe.
 */
final class MetricsEndpoint implements AutoCloseable
{
    /**
     * What {@code /health} answers: 200 when ready, else 503, with {@code state} as its one-line body.
     */
    record Health(boolean ready, String state)
    {
    }

    private static final Health STARTING = new Health(false, "starting: opening and recovering the data directory");
    private static final Health READY = new Health(true, "ready");
    private static final Health CLOSING = new Health(false, "closing");

    private final HttpServer http;
    private final ExecutorService threads;
    /** Null until the server has started. */
    private volatile Supplier<List<MetricSample>> samples;
    private volatile Supplier<Health> health = () -> STARTING;
    private volatile boolean closing;

    private MetricsEndpoint(final HttpServer http, final ExecutorService threads)
    {
        this.http = http;
        this.threads = threads;
    }

    /**
     * Binds {@code host:port} (0 picks a free port) and serves at once; /metrics answers 503 until {@link #ready}.
     *
     * @throws IOException when the address cannot be bound, as when the port is in use.
     */
    static MetricsEndpoint start(final String host, final int port) throws IOException
    {
        final HttpServer http = HttpServer.create(new InetSocketAddress(host, port), 16);
        final ExecutorService threads = Executors.newFixedThreadPool(2, runnable ->
        {
            final Thread thread = new Thread(runnable, "spool-metrics-http");
            thread.setDaemon(true);
            return thread;
        });
        final MetricsEndpoint endpoint = new MetricsEndpoint(http, threads);
        final PrometheusRegistry registry = new PrometheusRegistry();
        registry.register(new SampleCollector(() -> endpoint.samples.get()));
        JvmMetrics.builder().register(registry);
        final MetricsHandler metrics = new MetricsHandler(registry);
        http.createContext("/metrics", exchange ->
        {
            if (endpoint.samples != null && !endpoint.closing)
            {
                metrics.handle(exchange);
            }
            else
            {
                endpoint.answer(exchange, 503, endpoint.health().state());
            }
        });
        http.createContext("/health", exchange ->
        {
            final Health now = endpoint.health();
            endpoint.answer(exchange, now.ready() ? 200 : 503, now.state());
        });
        http.setExecutor(threads);
        http.start();
        return endpoint;
    }

    int port()
    {
        return http.getAddress().getPort();
    }

    /** The data directory is open and recovered and the server listens: /health says so, /metrics serves. */
    void ready(final Supplier<List<MetricSample>> figures)
    {
        started(figures, () -> READY);
    }

    /** The server has started: /metrics serves {@code figures}, and /health answers what {@code now} says. */
    void started(final Supplier<List<MetricSample>> figures, final Supplier<Health> now)
    {
        this.health = now;
        this.samples = figures;
    }

    /** The server is closing: /health and /metrics answer 503 from now on. */
    void closing()
    {
        closing = true;
    }

    private Health health()
    {
        return closing ? CLOSING : health.get();
    }

    private void answer(final HttpExchange exchange, final int status, final String text) throws IOException
    {
        final byte[] body = (text + "\n").getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody())
        {
            out.write(body);
        }
    }

    @Override
    public void close()
    {
        closing();
        http.stop(0);
        threads.shutdownNow();
    }
}
