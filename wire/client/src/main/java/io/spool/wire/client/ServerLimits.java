package io.spool.wire.client;

/**
 * What the server announced in the handshake: how often to send heartbeats, the largest frame it reads, and how
 * many unconfirmed records it lets a connection have before it stops reading. Immutable, thread-safe.
 */
public record ServerLimits(int heartbeatIntervalMillis, int maxFrameLength, int maxUnconfirmedPublishes)
{
}
