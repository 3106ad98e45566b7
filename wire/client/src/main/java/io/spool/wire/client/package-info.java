/**
 * The Java client of Spool's native protocol: {@link io.spool.wire.client.SpoolClient} (a
 * {@link io.spool.api.Messaging}), its producers (including the cluster's {@link io.spool.wire.client.FailoverProducer}),
 * stream readers, subscriptions, push consumers, groups, exchanges and admin.
 * <p>
 * API, with its connection machinery package-private. No engine code on its class path
 * ({@code ClientNeedsNoEngineTest}). Answers and pushes arrive on the connection's Netty thread; each type states
 * whether it is thread-safe.
 */
package io.spool.wire.client;
