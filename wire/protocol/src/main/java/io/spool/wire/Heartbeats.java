package io.spool.wire;

import io.netty.handler.timeout.IdleStateHandler;

import java.util.concurrent.TimeUnit;

/**
 * The idle detection of a connection, the same on both ends: a client that has written nothing for one heartbeat
 * interval sends a PING, and either end closes a connection it has read nothing from for
 * {@link HelloDescriptor#IDLE_INTERVALS} intervals. Stateless, thread-safe.
 * <p>
 * Design note: idle detection runs on wall time (Netty's ticker), not on the engine's injected clock, on purpose.
 * It watches the network peer, whose heartbeats are paced by the peer's own wall clock; the engine clock is the
 * clock of message semantics (locks, delays, time to live, a fetch's or a receive's wait) and may be moved by hand or
 * stand still. Judged on a clock a lab moves by minutes, every live connection would look silent and be dropped; on a
 * clock that stands still, a dead peer would hold its deliveries forever. Tests step it without sleeping through
 * Netty's {@code EmbeddedChannel}, whose ticker they advance.
 */
public final class Heartbeats
{
    private Heartbeats()
    {
    }

    /** The server's: closes a connection silent for {@link HelloDescriptor#IDLE_INTERVALS} intervals. */
    public static IdleStateHandler serverIdleHandler(final int heartbeatIntervalMillis)
    {
        return new IdleStateHandler((long)heartbeatIntervalMillis * HelloDescriptor.IDLE_INTERVALS, 0, 0,
            TimeUnit.MILLISECONDS);
    }

    /** The client's: a PING after an interval without writing, a close after the server's silence. */
    public static IdleStateHandler clientIdleHandler(final int heartbeatIntervalMillis)
    {
        return new IdleStateHandler((long)heartbeatIntervalMillis * HelloDescriptor.IDLE_INTERVALS,
            heartbeatIntervalMillis, 0, TimeUnit.MILLISECONDS);
    }
}
