/**
 * The {@code spool} command line (picocli): the server, the operator commands (topics, subscriptions, groups,
 * exchanges, produce, consume, tail, verify, dump) on a running server or a data directory, and the entry points of
 * the benchmarks and labs.
 * <p>
 * Not API: the commands are the interface ({@code docs/guide/cli.md}). Each command runs on the thread that invoked
 * it and is not thread-safe.
 */
package io.spool.perf.cli;
