/**
 * Internal: the message state machine of one subscription partition
 * ({@link io.spool.queue.internal.state.SubscriptionPartitionState}, docs/design/queue-state-machine.md gives every
 * transition). Acquisition and the read cursor, settlement, releases of ended locks, delays and the retry ladder,
 * dead-lettering, message groups, expiry, and the restore of a state from what the store read back. Each change is
 * told to a {@link io.spool.queue.internal.state.StateLog}, which the store implements.
 * <p>
 * Not API: nothing outside queue-layer uses it. It uses the per-offset tables and the API's value types and
 * exceptions, never the store, the agent or the registry. Its state is owned by the thread of its subscription's
 * agent pass (or a test stepping it by hand); nothing here is thread-safe.
 */
package io.spool.queue.internal.state;
