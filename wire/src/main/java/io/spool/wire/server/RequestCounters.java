package io.spool.wire.server;

import io.spool.api.MetricSample;
import io.spool.wire.OpCode;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The server's counts of requests and error replies by operation, and of connections accepted. Counted on the
 * connections' event loops, one atomic add per request, nothing allocated. Thread-safe.
 */
final class RequestCounters
{
    private static final int OPERATIONS = 0x100;

    private final AtomicLongArray requests = new AtomicLongArray(OPERATIONS);
    private final AtomicLongArray errors = new AtomicLongArray(OPERATIONS);
    private final AtomicLong connectionsAccepted = new AtomicLong();

    void request(final int opCode)
    {
        requests.incrementAndGet(opCode & (OPERATIONS - 1));
    }

    void error(final int opCode)
    {
        errors.incrementAndGet(opCode & (OPERATIONS - 1));
    }

    void connectionAccepted()
    {
        connectionsAccepted.incrementAndGet();
    }

    /** Adds the counts to {@code samples}: every operation requested at least once, with its errors. */
    void addTo(final List<MetricSample> samples)
    {
        samples.add(MetricSample.counter("spool_server_connections_accepted_total",
            "Connections the server accepted.", Map.of(), connectionsAccepted.get()));
        for (int op = 0; op < OPERATIONS; op++)
        {
            final long requested = requests.get(op);
            final long failed = errors.get(op);
            if (requested == 0 && failed == 0)
            {
                continue;
            }
            final Map<String, String> labels = Map.of("operation", OpCode.name(op));
            samples.add(MetricSample.counter("spool_server_requests_total",
                "Requests received, by operation.", labels, requested));
            samples.add(MetricSample.counter("spool_server_errors_total",
                "Error replies sent, by the operation they answered.", labels, failed));
        }
    }
}
