package io.spool.wire.server;

import io.spool.Spool;

/**
 * What every connection of a server shares: its settings, the engine, the admin operations and the executor that
 * runs queue calls which wait on a subscription's agent. Immutable,
 * thread-safe.
 */
record ServerContext(ServerConfig config, Spool engine, AdminOperations admin, java.util.concurrent.Executor queueExecutor)
{
}
