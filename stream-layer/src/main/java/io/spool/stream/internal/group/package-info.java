/**
 * Internal: consumer-group machinery behind {@link io.spool.stream.GroupCoordinator}. A group's members, generation
 * and assignment ({@link io.spool.stream.internal.group.ConsumerGroup}, {@link
 * io.spool.stream.internal.group.Assignments}), a consumer's side of membership ({@link
 * io.spool.stream.internal.group.GroupMembership}), committed offsets ({@link
 * io.spool.stream.internal.group.CommittedOffsetStore}) and their file layout, and group reports.
 * <p>
 * Not API: nothing outside stream-layer uses it. It may use the stream layer's and the log store's API types,
 * {@code internal.consumer} and {@code internal.topic}'s names, never {@code internal.producer}. A group's state is
 * changed under the coordinator's lock, the offset store's under its own; a membership belongs to its consumer's
 * thread.
 */
package io.spool.stream.internal.group;
