package io.spool.wire.server;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counts the sessions (connections past the HELLO handshake) a server holds open, in all and per client address,
 * and decides whether the next one is admitted. A connection is counted from its handshake, not from its accept, so
 * connections that come and go without a handshake (a port scan, a connect storm) never keep a client out; they are
 * bounded by the {@link AcceptGate} instead. Thread-safe: takes no lock.
 */
final class ConnectionLimits
{
    private static final Logger LOGGER = LoggerFactory.getLogger(ConnectionLimits.class);
    private static final long LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final int maxSessions;
    private final int maxPerAddress;
    private final AtomicInteger sessions = new AtomicInteger();
    private final ConcurrentHashMap<String, Integer> sessionsByAddress = new ConcurrentHashMap<>();
    private final AtomicLong refusedSinceLog = new AtomicLong();
    private final AtomicLong lastLogNanos = new AtomicLong(System.nanoTime() - LOG_INTERVAL_NANOS);

    ConnectionLimits(final int maxSessions, final int maxPerAddress)
    {
        this.maxSessions = maxSessions;
        this.maxPerAddress = maxPerAddress;
    }

    int sessions()
    {
        return sessions.get();
    }

    /**
     * The client address a connection counts against: its host, whatever port it came from.
     */
    static String clientOf(final SocketAddress remote)
    {
        return remote instanceof InetSocketAddress ? ((InetSocketAddress)remote).getAddress().getHostAddress() :
            String.valueOf(remote);
    }

    /**
     * Admits a session from {@code client} ({@link #clientOf}) if both limits leave room; the caller must
     * {@link #release} it when its connection closes.
     *
     * @return null when admitted, otherwise why it is refused.
     */
    String admit(final String client)
    {
        int current;
        do
        {
            current = sessions.get();
            if (current >= maxSessions)
            {
                return refused("the server holds its limit of " + maxSessions + " connections", client);
            }
        }
        while (!sessions.compareAndSet(current, current + 1));
        if (sessionsByAddress.merge(client, 1, Integer::sum) > maxPerAddress)
        {
            release(client);
            return refused("the server holds its limit of " + maxPerAddress + " connections from " + client, client);
        }
        return null;
    }

    /** An admitted session's connection closed. */
    void release(final String client)
    {
        sessions.decrementAndGet();
        sessionsByAddress.computeIfPresent(client, (ignored, count) -> count == 1 ? null : count - 1);
    }

    /** Logs refusals at most once a second, with how many there were: a storm of them must not flood the log. */
    private String refused(final String reason, final String client)
    {
        final long refused = refusedSinceLog.incrementAndGet();
        final long now = System.nanoTime();
        final long last = lastLogNanos.get();
        if (now - last >= LOG_INTERVAL_NANOS && lastLogNanos.compareAndSet(last, now))
        {
            refusedSinceLog.addAndGet(-refused);
            LOGGER.warn("refused " + refused + (refused == 1 ? " connection" : " connections") +
                " since the last report, the latest from " + client + ": " + reason);
        }
        return reason;
    }
}
