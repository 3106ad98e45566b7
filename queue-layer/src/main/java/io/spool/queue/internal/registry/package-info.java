/**
 * Internal: the files that say which subscriptions and exchanges exist. The subscription catalog (one entry file
 * per subscription), the exchange catalog, the quarantine and repair of a subscription whose files are damaged, and
 * the check of all of them that {@code Spool.checkFiles} and {@code spool verify} run.
 * <p>
 * Not API: nothing outside queue-layer uses it. It reads and writes catalog files and checks stored state through
 * the store; it never touches the agent or the state machine. The catalogs are written by the thread that holds
 * the registry's or the router's lock; the check runs on the caller's thread over closed files.
 */
package io.spool.queue.internal.registry;
