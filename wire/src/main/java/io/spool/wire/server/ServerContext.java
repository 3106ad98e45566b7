package io.spool.wire.server;

import io.spool.Spool;

/**
 * What every connection of a server shares: its settings, the engine and the admin operations. Immutable,
 * thread-safe.
 */
record ServerContext(ServerConfig config, Spool engine, AdminOperations admin)
{
}
