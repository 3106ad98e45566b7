/**
 * The native protocol's server ({@code docs/design/protocol.md}): {@link io.spool.wire.server.SpoolServer} and its
 * settings, the per-connection sessions of each operation (publish, fetch, queue, groups), the admin and exchange
 * operations, and the limits that keep one client from hurting the others (connection counts, read gating,
 * request sizes).
 * <p>
 * API: {@link io.spool.wire.server.SpoolServer}, {@link io.spool.wire.server.ServerConfig} and
 * {@link io.spool.wire.server.ReplicatedPublishes} and {@link io.spool.wire.server.HeldPartitions} (where a cluster
 * node plugs in its replication); the rest is
 * package-private. A connection's sessions belong to its Netty event loop;
 * calls that create files or wait (admin, groups, waiting queue receives) run on the server's executors, and each
 * class says which.
 */
package io.spool.wire.server;
