package io.spool.wire.server;

import io.spool.Spool;

import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What every connection of a server shares: its settings, the engine, the admin and exchange operations, the
 * executor of admin and group calls, the executor that runs queue calls which wait on a subscription's agent, and the
 * count of connections the server does not read now ({@link ReadGate}) and the sessions it holds
 * ({@link ConnectionLimits}), where sequenced publishes go (null on a server that is no cluster node) and which
 * partitions the node's log holds ({@link HeldPartitions#ALL} on a server that is no cluster node).
 * Immutable but for those counts, thread-safe.
 */
record ServerContext(ServerConfig config, Spool engine, AdminOperations admin, ExchangeOperations exchanges,
    Executor adminExecutor, Executor queueExecutor, AtomicInteger pausedConnections, RequestCounters counters,
    ConnectionLimits sessions, ReplicatedPublishes replicated,
    HeldPartitions held)
{
}
