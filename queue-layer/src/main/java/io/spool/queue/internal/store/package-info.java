/**
 * Internal: a subscription partition's state on disk. The journal of changes
 * ({@link io.spool.queue.internal.store.StateJournal}, {@link io.spool.queue.internal.store.JournalDescriptor} draws
 * the layout) with its reader, the snapshot that compacts it ({@link io.spool.queue.internal.store.SnapshotDescriptor})
 * * the layout) with its reader, the snapshot that compacts it ({@link io.spool.queue.internal.store.SnapshotDescriptor}),
 * the restore at open, the verification {@code spool verify} runs, and the store that ties them together
 * ({@link io.spool.queue.internal.store.SubscriptionStateStore}, which implements the state machine's
 * {@link io.spool.queue.internal.state.StateLog}).
 * <p>
 * Not API: nothing outside queue-layer uses it. It builds on the state machine and the per-offset tables and never
 * touches the agent or the registry. A store is written by the thread of its subscription's agent pass; the
 * verification reads closed files on the caller's thread.
 */
package io.spool.queue.internal.store;
