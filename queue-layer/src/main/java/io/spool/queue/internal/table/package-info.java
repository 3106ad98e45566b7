/**
 * Internal: the per-offset tables a subscription partition keeps in primitive arrays keyed by offset. The window of
 * unsettled offsets and their delivery counts ({@link io.spool.queue.internal.table.OffsetWindow}), the in-flight
 * records with their locks ({@link io.spool.queue.internal.table.InFlightTable}), the deadline timers, first delivery
 * times, the offsets read ahead and held for a delay or an expiry, and the plain marks of the read-ahead.
 * <p>
 * Not API: nothing outside queue-layer uses it. A table knows offsets and slots only: it uses nothing else of the
 * module, neither the state machine that gives its entries a meaning nor the store or the agent. Every table is
 * owned by the thread of its subscription's agent pass; none is thread-safe.
 */
package io.spool.queue.internal.table;
