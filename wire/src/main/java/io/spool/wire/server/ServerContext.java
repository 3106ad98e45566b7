package io.spool.wire.server;

import io.spool.Spool;

import java.util.concurrent.Executor;

/**
 * What every connection of a server shares: its settings, the engine, the admin and exchange operations, the executor of admin
 * and group calls, and the executor that runs queue calls which wait on a subscription's agent. Immutable,
 * thread-safe.
 */
record ServerContext(ServerConfig config, Spool engine, AdminOperations admin, ExchangeOperations exchanges,
    Executor adminExecutor, Executor queueExecutor)
{
}
